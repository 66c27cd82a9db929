import { secretLogPaths } from "../../src/config/secrets.js";
import { mkdirSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { Writable } from "node:stream";
import { defaultConfig } from "../../src/config/defaults.js";
import { withPlexEntry } from "../../src/config/plex-entry.js";
import type { Config } from "../../src/config/types.js";
import { systemClock, type Clock } from "../../src/lib/clock.js";
import { resolveInstallPaths, type InstallPaths } from "../../src/lib/install-paths.js";
import { createLogger } from "../../src/lib/logger.js";
import { startService, type RunningService } from "../../src/serve/service.js";
import { startFakePlex, type FakePlex, type FakePlexOptions, type FakeSection } from "../fakes/plex.js";
import { tempDir } from "./cli.js";

export const TEST_PASS = "0123456789abcdef0123456789abcdef";

/** Libraries in the *arr fixtures' own path style (/tv, /movies, /music, /books). */
export const ARR_SECTIONS: FakeSection[] = [
  { key: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] },
  { key: "2", title: "TV Shows", type: "show", locations: ["/data/TV"] },
  { key: "5", title: "Music", type: "artist", locations: ["/data/Music"] },
  { key: "7", title: "Books", type: "artist", locations: ["/data/Books"] },
];

export const ARR_MAPPINGS: Record<string, string[]> = {
  "/data/Movies/": ["/movies/", "My Drive/Media/Movies/"],
  "/data/TV/": ["/tv/", "My Drive/Media/TV/"],
  "/data/Music/": ["/music/"],
  "/data/Books/": ["/books/"],
};

export interface TestService {
  service: RunningService;
  plex: FakePlex;
  paths: InstallPaths;
  config: Config;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `http://127.0.0.1:<port>/<pass>` */
  base: string;
  /** Everything the service logged (JSON lines). */
  logs: () => string;
  stop(): Promise<void>;
}

export interface TestServiceOptions {
  /** Libraries of the fake Plex. */
  sections?: FakeSection[];
  clock?: Clock;
  /** Environment of the service (the scanner method runs executables from its PATH). */
  env?: NodeJS.ProcessEnv;
  /** Runs after the install dir exists, before the service starts (e.g. to write a token). */
  beforeStart?: (paths: InstallPaths) => void;
  /** How often the service looks at its anchors while idle. */
  anchorPollMs?: number;
  /** Per-request time-out of the HTTP targets. */
  targetTimeoutMs?: number;
  /** Called as each request reaches the fake Plex; a promise holds its answer back (test/fakes/plex.ts). */
  onPlexRequest?: FakePlexOptions["onRequest"];
}

/** The config the test services run on: loopback, no delay, the *arr mappings, the fake Plex, no file checks or confirmation. */
export function testServiceConfig(plex: Pick<FakePlex, "url" | "token">, overrides: Partial<Config> = {}): Config {
  return {
    ...defaultConfig(TEST_PASS),
    SERVER_IP: "127.0.0.1",
    SERVER_PORT: 0,
    SERVER_SCAN_DELAY: 0,
    // The fake media is not on this machine's disk; tests of file checks turn them on.
    SERVER_MAX_FILE_CHECKS: 0,
    SERVER_ALLOW_MANUAL_SCAN: true,
    SERVER_PATH_MAPPINGS: ARR_MAPPINGS,
    PLEX_LOCAL_URL: plex.url,
    PLEX_TOKEN: plex.token,
    // Confirmation polls Plex for seconds after each scan; the tests that want it (test/after-scan/) turn it on.
    PLEX_CONFIRM_SCANS: false,
    ...overrides,
  };
}

/** CLOUD for drive monitoring against the fake Drive at `apiUrl`, watching `filePaths` (the token: writeFakeDriveToken). */
export function fakeDriveCloud(apiUrl: string, filePaths: string[], pollInterval: number): Config["CLOUD"] {
  const { CLOUD } = defaultConfig(TEST_PASS);
  return {
    ...CLOUD,
    ENABLED: true,
    CLIENT_ID: "client-id",
    CLIENT_SECRET: "client-secret",
    API_URL: apiUrl,
    POLL_INTERVAL: pollInterval,
    ALLOWED: { ...CLOUD.ALLOWED, FILE_PATHS: filePaths },
  };
}

/** Writes the drive token the fake Drive accepts (test/fakes/drive.ts), valid for an hour. */
export function writeFakeDriveToken(paths: Pick<InstallPaths, "tokenFile">): void {
  const token = { access_token: "fake-access-token", refresh_token: "r", expiry_date: Date.now() + 3_600_000, token_type: "Bearer" };
  writeFileSync(paths.tokenFile, JSON.stringify(token), { mode: 0o600 });
}

/** The service on an install of the caller's (a restart on the same data, a data folder on a small disk), logging JSON at debug with the config's secrets redacted. */
export async function startServiceOn(
  config: Config,
  paths: InstallPaths,
  options: Pick<TestServiceOptions, "clock" | "env" | "anchorPollMs" | "targetTimeoutMs"> = {},
): Promise<Pick<TestService, "service" | "origin" | "base" | "logs">> {
  let logText = "";
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      logText += chunk.toString();
      done();
    },
  });
  const logger = createLogger({ level: "debug", format: "json", destination, redact: secretLogPaths() });
  const { clock = systemClock, env = process.env, anchorPollMs, targetTimeoutMs } = options;
  // As the loader gives it: the flat PLEX_* keys made a TARGETS entry.
  const service = await startService({ config: withPlexEntry(config), paths, logger, clock, env, anchorPollMs, targetTimeoutMs });
  const origin = `http://127.0.0.1:${service.port}`;
  return { service, origin, base: `${origin}/${TEST_PASS}`, logs: () => logText };
}

/** A real service on 127.0.0.1:0 with a real SQLite queue in a temp dir and the loopback fake Plex. */
export async function startTestService(overrides: Partial<Config> = {}, options: TestServiceOptions = {}): Promise<TestService> {
  const { sections = ARR_SECTIONS, clock = systemClock, env = process.env, beforeStart } = options;
  const plex = await startFakePlex({ sections, ...(options.onPlexRequest ? { onRequest: options.onPlexRequest } : {}) });
  const config = testServiceConfig(plex, overrides);
  const paths = resolveInstallPaths(tempDir());
  mkdirSync(paths.dataDir, { recursive: true });
  beforeStart?.(paths);
  const { service, origin, base, logs } = await startServiceOn(config, paths, {
    clock,
    env,
    anchorPollMs: options.anchorPollMs,
    targetTimeoutMs: options.targetTimeoutMs,
  });
  return {
    service,
    plex,
    paths,
    config,
    origin,
    base,
    logs,
    async stop() {
      await service.stop();
      await plex.close();
    },
  };
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : { text } };
}

export async function postForm(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, text: await res.text() };
}

/** Waits until `predicate` holds, polling every 10 ms; fails after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 5_000, what = "condition"): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Moves a manual clock a minute at a time (a drive poll interval and more) until `until` holds; fails after 10 s. */
export async function advanceUntil(clock: { advance(ms: number): void }, until: () => boolean, what: string): Promise<void> {
  await waitFor(
    () => {
      clock.advance(61_000);
      return until();
    },
    10_000,
    what,
  );
}

/** Every scan the queue holds or held (finished ones stay as history), read from the database file as committed. */
export function storedScans(t: Pick<TestService, "paths">): Array<{ folder: string; state: string }> {
  const db = new Database(t.paths.database, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT folder, state FROM scan_queue ORDER BY id").all() as Array<{ folder: string; state: string }>;
  } finally {
    db.close();
  }
}

/** Waits until no delivery is in flight, as the database records it (a due delivery is claimed as soon as the clock says so). */
export async function deliveriesSettled(t: Pick<TestService, "paths">, timeoutMs = 5_000): Promise<void> {
  const inFlight = () => {
    const db = new Database(t.paths.database, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare("SELECT COUNT(*) AS n FROM scan_delivery WHERE state = 'delivering'").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  await waitFor(() => inFlight() === 0, timeoutMs, "deliveries in flight to finish");
}

/** Each target's delivery of the scans of `folder` (Plex's path form), as the database records it. */
export function deliveriesOf(
  t: Pick<TestService, "paths">,
  folder: string,
): Record<string, { state: string; attempts: number; error: string | null }> {
  const db = new Database(t.paths.database, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        "SELECT d.target, d.state, d.attempts, d.last_error AS error FROM scan_delivery d JOIN scan_queue q ON q.id = d.scan_id WHERE q.folder = ?",
      )
      .all(folder) as Array<{ target: string; state: string; attempts: number; error: string | null }>;
    return Object.fromEntries(rows.map(({ target, ...rest }) => [target, rest]));
  } finally {
    db.close();
  }
}
