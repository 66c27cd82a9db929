/**
 * Runs the scanarr image built from contrib/Dockerfile with podman and checks
 * it from outside, as a user would: first start on empty volumes, /health,
 * a Sonarr webhook through the published port reaching a (fake) Plex on the
 * host, the HEALTHCHECK, the non-root user, and a clean, quick stop.
 * Called by contrib/container-test.sh: `node --import tsx test/container/run-image.ts <image>`.
 */
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { startFakePlex } from "../fakes/plex.js";

const IMAGE = process.argv[2] ?? "localhost/scanarr:ci";
const PASS = "c0ffee00c0ffee00c0ffee00c0ffee00";
// podman puts this name in every container's /etc/hosts, pointing at the host's side of the bridge.
const HOST_FROM_CONTAINER = "host.containers.internal";
const UID = 1000;
// The first start runs as another user, as PUID/PGID ask, on volumes that root owns.
const PUID = 1001;
const PGID = 1002;

const started: string[] = [];
const dirs: string[] = [];

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`container test failed: ${what}`);
  console.log(`ok - ${what}`);
}

async function podman(args: string[], options: { reject?: boolean } = {}) {
  return execa("podman", args, { reject: options.reject ?? true, timeout: 120_000 });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A directory for a volume, owned by `owner` (the image's default user unless said). */
function volumeDir(name: string, owner = UID): string {
  const dir = mkdtempSync(path.join(tmpdir(), `scanarr-ct-${name}-`));
  dirs.push(dir);
  chownSync(dir, owner, owner);
  return dir;
}

async function runContainer(
  name: string,
  configDir: string,
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<void> {
  await podman([
    "run",
    "-d",
    "--name",
    name,
    ...Object.entries(env).flatMap(([key, value]) => ["-e", `${key}=${value}`]),
    "-p",
    `127.0.0.1:${port}:3468`,
    "-v",
    `${configDir}:/config`,
    "-v",
    `${dataDir}:/data`,
    IMAGE,
  ]);
  started.push(name);
}

/** Polls until `probe` returns a value; a condition, not a fixed sleep. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function health(port: number): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
  const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function stopAndCheck(name: string): Promise<void> {
  const t0 = Date.now();
  await podman(["stop", "--time", "30", name]);
  const seconds = (Date.now() - t0) / 1000;
  const exit = (await podman(["inspect", name, "--format", "{{.State.ExitCode}}"])).stdout.trim();
  check(exit === "0", `${name} exits 0 on SIGTERM (exit code ${exit})`);
  check(seconds < 10, `${name} stops in ${seconds.toFixed(1)} s, without being killed`);
  const logs = await podman(["logs", name]);
  check(`${logs.stdout}${logs.stderr}`.includes("stopped"), `${name} logs that it stopped`);
}

/** uid, gid and umask of the container's scanarr process (tini is PID 1; scanarr is its child). */
async function serveProcess(name: string): Promise<{ uid: string; gid: string; umask: string }> {
  const script =
    'for p in /proc/[0-9]*; do case "$(tr "\\0" " " < $p/cmdline 2>/dev/null)" in "node /app/contrib/docker-entrypoint.mjs serve"*) cat $p/status; exit 0;; esac; done; exit 1';
  const status = (await podman(["exec", name, "sh", "-c", script])).stdout;
  const field = (key: string) => new RegExp(`^${key}:\\s+(\\S+)`, "m").exec(status)?.[1] ?? "?";
  return { uid: field("Uid"), gid: field("Gid"), umask: field("Umask") };
}

async function firstStart(): Promise<void> {
  // Root-owned volumes, as `docker run -v` makes them when the folders do not exist yet.
  const configDir = volumeDir("config", 0);
  const dataDir = volumeDir("data", 0);
  const port = await freePort();
  const name = `scanarr-ct-first-${process.pid}`;
  await runContainer(name, configDir, dataDir, port, { PUID: String(PUID), PGID: String(PGID), UMASK: "002", TZ: "Europe/Paris" });
  await waitFor("the first start to listen", () => health(port));
  const written = statSync(path.join(configDir, "config.json"));
  check(
    written.uid === PUID && written.gid === PGID && (written.mode & 0o777) === 0o600,
    `the first start writes /config/config.json, mode 0600, owned by PUID:PGID ${PUID}:${PGID}`,
  );
  check(readdirSync(dataDir).includes("scanarr.db"), "the queue database lives in /data");
  const owners = [configDir, dataDir].map((dir) => statSync(dir)).map((stat) => `${stat.uid}:${stat.gid}`);
  check(
    owners.every((owner) => owner === `${PUID}:${PGID}`),
    `both volumes now belong to PUID:PGID (${owners.join(", ")})`,
  );
  const serve = await serveProcess(name);
  check(
    serve.uid === String(PUID) && serve.gid === String(PGID) && serve.umask === "0002",
    `serve runs as uid ${serve.uid}, gid ${serve.gid}, umask ${serve.umask} (PUID, PGID, UMASK)`,
  );
  const offset = (
    await podman(["exec", name, "node", "-e", "process.stdout.write(String(new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset()))"])
  ).stdout;
  check(offset === "-60", `TZ=Europe/Paris is the runtime's zone (UTC offset ${offset} minutes in January)`);
  const firstLogs = await podman(["logs", name]);
  check(
    `${firstLogs.stdout}${firstLogs.stderr}`.includes("`scanarr setup` finishes the set-up"),
    "the first start names the command that finishes the set-up (`scanarr setup`)",
  );
  const version = (await podman(["exec", name, "scanarr", "--version"])).stdout.trim();
  check(/^\d+\.\d+\.\d+/.test(version), `docker exec … scanarr runs through the same entry point (${version})`);
  await stopAndCheck(name);
}

async function badPuid(): Promise<void> {
  const run = await podman(["run", "--rm", "-e", "PUID=abc", IMAGE, "--version"], { reject: false });
  check(
    run.exitCode === 2 && run.stderr.includes('PUID="abc" is not a user or group number'),
    `a PUID that is not a number stops the start with a clear error (exit ${run.exitCode}: ${run.stderr.trim()})`,
  );
}

async function labels(): Promise<void> {
  const inspected = (await podman(["image", "inspect", IMAGE, "--format", "{{json .Labels}}"])).stdout;
  const found = JSON.parse(inspected) as Record<string, string>;
  const prefix = "org.opencontainers.image.";
  const missing = ["source", "version", "revision", "title", "description", "licenses"].filter((key) => !found[`${prefix}${key}`]);
  check(missing.length === 0, `the image carries the OCI labels${missing.length ? ` (missing: ${missing.join(", ")})` : ""}`);
  const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
  check(found[`${prefix}version`] === version, `its version label is package.json's (${found[`${prefix}version`]})`);
}

async function webhookToPlex(): Promise<void> {
  // Listens on every address so the container can reach it through the bridge; only for this run.
  const plex = await startFakePlex({ host: "0.0.0.0", sections: [{ key: "2", title: "TV Shows", type: "show", locations: ["/data/TV"] }] });
  try {
    const plexPort = new URL(plex.url).port;
    const configDir = volumeDir("config");
    const dataDir = volumeDir("data");
    const config = {
      SERVER_IP: "0.0.0.0",
      SERVER_PORT: 3468,
      SERVER_PASS: PASS,
      SERVER_SCAN_DELAY: 0,
      PLEX_LOCAL_URL: `http://${HOST_FROM_CONTAINER}:${plexPort}`,
      PLEX_TOKEN: plex.token,
      PLEX_DATABASE_PATH: "",
      SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"] },
    };
    const file = path.join(configDir, "config.json");
    writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
    chownSync(file, UID, UID);
    const port = await freePort();
    const name = `scanarr-ct-${process.pid}`;
    await runContainer(name, configDir, dataDir, port);
    const ready = await waitFor("/health to answer 200", async () => {
      const answer = await health(port);
      return answer?.status === 200 ? answer : undefined;
    });
    check(ready.body.status === "ok", `/health answers 200 "ok" through the published port (${JSON.stringify(ready.body)})`);
    const serve = await serveProcess(name);
    check(serve.uid === String(UID), `serve runs as uid ${serve.uid} (the default PUID), not root`);
    const probe = await podman(["healthcheck", "run", name], { reject: false });
    const said = `${probe.stdout}${probe.stderr}`.trim();
    check(probe.exitCode === 0, `the image's HEALTHCHECK passes${said ? ` (${said})` : ""}`);

    const webhook = {
      eventType: "Download",
      series: { id: 14, title: "The Expanse", path: "/tv/The Expanse" },
      episodes: [{ id: 1, episodeNumber: 1, seasonNumber: 1, title: "Dulcinea" }],
      episodeFile: { id: 7, relativePath: "Season 1/The Expanse - S01E01.mkv", path: "/tv/The Expanse/Season 1/The Expanse - S01E01.mkv" },
      isUpgrade: false,
    };
    const res = await fetch(`http://127.0.0.1:${port}/${PASS}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(webhook),
    });
    check(res.status === 202, `the Sonarr webhook is accepted (${res.status} ${await res.text()})`);
    await plex.waitForRefreshes(1, 30_000);
    const [refresh] = plex.refreshes;
    check(
      refresh?.sectionId === "2" && refresh.path === "/data/TV/The Expanse/Season 1",
      `Plex on the host is asked to scan the mapped folder (${JSON.stringify(refresh)})`,
    );
    await burstToPlex(name, port, plex);
    await stopAndCheck(name);
  } finally {
    await plex.close();
  }
}

/**
 * 300 webhooks, 32 at a time, each a series of its own: fast enough for the commit thread
 * (dist/cli/commit-worker.js, as the image runs it) to take over; every one is acknowledged and reaches Plex.
 */
async function burstToPlex(name: string, port: number, plex: Awaited<ReturnType<typeof startFakePlex>>): Promise<void> {
  const before = plex.refreshes.length;
  const total = 300;
  let next = 0;
  const statuses: number[] = [];
  const sender = async () => {
    while (next < total) {
      const i = next++;
      const res = await fetch(`http://127.0.0.1:${port}/${PASS}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          eventType: "Download",
          series: { id: 100 + i, title: `Burst ${i}`, path: `/tv/Burst ${i}` },
          episodes: [{ id: 1, episodeNumber: 1, seasonNumber: 1, title: "One" }],
          episodeFile: { id: 1, relativePath: "Season 1/e1.mkv", path: `/tv/Burst ${i}/Season 1/e1.mkv` },
          isUpgrade: false,
        }),
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: 32 }, sender));
  const accepted = statuses.filter((s) => s === 202).length;
  check(accepted === total, `a burst of ${total} webhooks is acknowledged (${accepted} × 202)`);
  const logs = await podman(["logs", name], { reject: false });
  check(`${logs.stdout}${logs.stderr}`.includes("commit thread started"), "the burst is committed on the commit thread of the built image");
  await plex.waitForRefreshes(before + total, 60_000);
  const reached = new Set(plex.refreshes.slice(before).map((r) => r.path));
  const missing = Array.from({ length: total }, (_, i) => `/data/TV/Burst ${i}/Season 1`).filter((f) => !reached.has(f));
  check(missing.length === 0, `every folder of the burst reaches Plex (${missing.length} missing)`);
}

async function main(): Promise<void> {
  const t0 = Date.now();
  try {
    await labels();
    await badPuid();
    await firstStart();
    await webhookToPlex();
    console.log(`container test passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } catch (error) {
    for (const name of started) {
      const logs = await podman(["logs", name], { reject: false });
      console.error(`--- logs of ${name} ---\n${logs.stdout}${logs.stderr}`);
    }
    throw error;
  } finally {
    for (const name of started) await podman(["rm", "-f", name], { reject: false });
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
