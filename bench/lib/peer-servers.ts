import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { BENCH_PASS, benchConfig, writeBenchConfig } from "./bench-config.js";
import { makeTempDir, onCleanup } from "./cleanup.js";
import { startBare } from "./ingest-wrk.js";
import { findListeningPort } from "./proc.js";
import { startServeChild } from "./serve-child.js";

/** One server of the side-by-side, started on a fresh temp data dir. */
export interface PeerServer {
  /** `http://127.0.0.1:<port>/`; the webhook's route is the contender's (`PEER_ROUTES`). */
  url: string;
  pid: number;
  /** The warnings and errors it logged so far, counted by message. */
  logProblems(): Map<string, number>;
  stop(): Promise<void>;
  /** After stop: the scans its database holds (autoscan's `scan` rows). */
  queued?(): number;
}

export interface PlexForPeers {
  url: string;
  token: string;
}

const AUTOSCAN_USER = "bench";

/** Where each server takes a Sonarr webhook, and the headers it needs beside Content-Type and User-Agent. */
export const PEER_ROUTES = {
  bare: { path: "/" },
  scanarr: { path: `/${BENCH_PASS}` },
  autoscan: {
    path: "/triggers/sonarr",
    headers: { Authorization: `Basic ${Buffer.from(`${AUTOSCAN_USER}:${BENCH_PASS}`).toString("base64")}` },
  },
} satisfies Record<string, { path: string; headers?: Record<string, string> }>;

/** The bare node:http reference: reads the body, answers 202. */
export async function startBarePeer(): Promise<PeerServer> {
  const bare = await startBare();
  return { url: bare.url, pid: bare.pid, logProblems: () => new Map(), stop: bare.stop };
}

/**
 * `scanarr serve` on the bench config (info logging), a new install: built (`bin/scanarr.js`, dist/ compiled by
 * the caller) as users run it, or from source through tsx; `more` environment variables and node flags.
 */
export async function startScanarrPeer(
  plex: PlexForPeers,
  built: boolean,
  more: { env?: Record<string, string>; nodeFlags?: string[] } = {},
): Promise<PeerServer> {
  const dir = makeTempDir();
  writeBenchConfig(dir, benchConfig(plex.url, plex.token));
  const serve = await startServeChild(dir, { logLevel: "info", built, ...more });
  const logProblems = () => {
    const counts = new Map<string, number>();
    for (const line of readFileSync(serve.logFile, "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line) as { level?: number; msg?: string };
      if ((entry.level ?? 0) >= 40) counts.set(entry.msg ?? line, (counts.get(entry.msg ?? line) ?? 0) + 1);
    }
    return counts;
  };
  return { url: `http://127.0.0.1:${serve.port}/`, pid: serve.pid, logProblems, stop: async () => void (await serve.stop()) };
}

/**
 * autoscan's config: one Sonarr trigger (Sonarr's /tv is the fake Plex's
 * /data/TV), basic auth on, a Plex target at the fake Plex, and a minimum
 * age of an hour so that every scan stays queued, as scanarr's bench config
 * keeps its own.
 */
function autoscanConfig(plex: PlexForPeers): string {
  return `host: ["127.0.0.1:0"]
minimum-age: 1h
authentication:
  username: ${AUTOSCAN_USER}
  password: ${BENCH_PASS}
triggers:
  sonarr:
    - name: sonarr
      rewrite:
        - from: ^/tv/
          to: /data/TV/
targets:
  plex:
    - url: ${plex.url}
      token: ${plex.token}
`;
}

// The console writer's line, colours off: "Nov 28 21:29:48 WRN Message key=value ...".
const AUTOSCAN_PROBLEM = /^\w{3} +\d+ [\d:]+ (WRN|ERR|FTL|PNC) (.*?)(?= \w[\w-]*=|$)/;

/** An autoscan binary at `binary` on a new database, basic auth on. */
export async function startAutoscanPeer(binary: string, plex: PlexForPeers): Promise<PeerServer> {
  const dir = makeTempDir("scanarr-bench-peer-");
  const config = path.join(dir, "config.yml");
  writeFileSync(config, autoscanConfig(plex), { mode: 0o600 });
  const database = path.join(dir, "autoscan.db");
  const activityLog = path.join(dir, "activity.log");
  const fd = openSync(path.join(dir, "stderr.log"), "a");
  const child = spawn(binary, ["--config", config, "--database", database, "--log", activityLog], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  const stop = async () => {
    if (running) child.kill("SIGTERM");
    await exited;
  };
  onCleanup(stop);
  const pid = child.pid ?? 0;
  const port = await waitForListening(
    pid,
    () => running,
    10_000,
    () => readFileSync(path.join(dir, "stderr.log"), "utf8"),
  );
  const logProblems = () => {
    const counts = new Map<string, number>();
    const text = existsSync(activityLog) ? readFileSync(activityLog, "utf8") : "";
    for (const line of text.split("\n")) {
      const match = AUTOSCAN_PROBLEM.exec(line);
      if (match) counts.set(`${match[1]} ${match[2]}`, (counts.get(`${match[1]} ${match[2]}`) ?? 0) + 1);
    }
    return counts;
  };
  const queued = () => {
    // Not read-only: autoscan exits on SIGTERM at once, and a hot rollback journal it leaves needs a writer to roll back.
    const db = new Database(database);
    try {
      return (db.prepare("SELECT COUNT(*) AS n FROM scan").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  return { url: `http://127.0.0.1:${port}/`, pid, logProblems, stop, queued };
}

async function waitForListening(pid: number, isRunning: () => boolean, timeoutMs: number, output: () => string): Promise<number> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (!isRunning()) throw new Error(`autoscan exited before listening:\n${output()}`);
    const port = findListeningPort(pid);
    if (port !== undefined) return port;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`autoscan did not listen within ${timeoutMs} ms:\n${output()}`);
}
