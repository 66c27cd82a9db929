/**
 * Runs the scanarr image built from contrib/Dockerfile with podman and checks
 * it from outside, as a user would: first start on empty volumes, /health,
 * a Sonarr webhook through the published port reaching a (fake) Plex on the
 * host, the HEALTHCHECK, the non-root user, and a clean, quick stop.
 * Called by contrib/container-test.sh: `node --import tsx test/container/run-image.ts <image>`.
 */
import { chownSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
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

/** A directory the image's user (uid 1000) owns, for a volume. */
function volumeDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `scanarr-ct-${name}-`));
  dirs.push(dir);
  chownSync(dir, UID, UID);
  return dir;
}

async function runContainer(name: string, configDir: string, dataDir: string, port: number): Promise<void> {
  await podman([
    "run",
    "-d",
    "--name",
    name,
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

async function firstStart(): Promise<void> {
  const configDir = volumeDir("config");
  const dataDir = volumeDir("data");
  const port = await freePort();
  const name = `scanarr-ct-first-${process.pid}`;
  await runContainer(name, configDir, dataDir, port);
  await waitFor("the first start to listen", () => health(port));
  const written = statSync(path.join(configDir, "config.json"));
  check(
    written.uid === UID && (written.mode & 0o777) === 0o600,
    "the first start writes /config/config.json, mode 0600, owned by uid 1000",
  );
  check(readdirSync(dataDir).includes("scanarr.db"), "the queue database lives in /data");
  await stopAndCheck(name);
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
    const user = (await podman(["exec", name, "id", "-u"])).stdout.trim();
    check(user === String(UID), `serve runs as uid ${user}, not root`);
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
    await stopAndCheck(name);
  } finally {
    await plex.close();
  }
}

async function main(): Promise<void> {
  const t0 = Date.now();
  try {
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
