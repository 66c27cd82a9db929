/**
 * One replay of the day (replay-plan.ts) against the real service, in
 * process on 127.0.0.1, with the replay's clock injected: the bench steps
 * from one instant to the next (a webhook, or a timer of the service's) once
 * the work of the last one has finished, so a day takes the time its work
 * takes, not 24 hours.
 */
import { mkdirSync } from "node:fs";
import { globalAgent } from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { defaultConfig } from "../../src/config/defaults.js";
import { withPlexEntry } from "../../src/config/plex-entry.js";
import type { Config } from "../../src/config/types.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startService } from "../../src/serve/service.js";
import { buildTargets } from "../../src/targets/build-targets.js";
import { BENCH_PASS } from "./bench-config.js";
import { makeTempDir } from "./cleanup.js";
import { collectFigures, type TargetFigures } from "./replay-figures.js";
import { DAY_MS, type DayPlan } from "./replay-plan.js";
import { startReplayServers } from "./replay-servers.js";
import { StepClock } from "./step-clock.js";

export interface ReplayOptions {
  /** SERVER_SCAN_DELAY in seconds, or "default": the key left out, as `init` writes a config. */
  delay: number | "default";
  /** How long each fake server takes to scan a path. */
  scanMs: number;
  /** Jellyfin's and Emby's LibraryMonitorDelay: a Media/Updated path waits this long after the last one (an item refresh does not). */
  monitorDelayMs: number;
  /** PLEX_CONFIRM_POLL_INTERVAL, seconds. */
  pollSec: number;
}

export interface ReplayResult {
  /** The SERVER_SCAN_DELAY the service ran with. */
  delaySec: number;
  targets: TargetFigures[];
  /** Webhooks sent, and those not answered 202. */
  sent: number;
  refused: number;
  /** Clock steps taken, and the wall time of the whole replay. */
  steps: number;
  wallMs: number;
  /** Scans still open when the replay gave up waiting (2 h of replay time after the last webhook). */
  stuck: number;
}

const DAY_START = Date.UTC(2026, 10, 28);
const GIVE_UP_AFTER_MS = 2 * 3_600_000;

export async function replayDay(plan: DayPlan, options: ReplayOptions): Promise<ReplayResult> {
  const started = performance.now();
  const dir = makeTempDir("scanarr-replay-");
  const clock = new StepClock(DAY_START);
  const servers = await startReplayServers(path.join(dir, "media"), options.scanMs, () => clock.now(), options.monitorDelayMs);
  servers.hold(plan.existing);
  const config: Config = {
    ...defaultConfig(BENCH_PASS),
    SERVER_IP: "127.0.0.1",
    SERVER_PORT: 0,
    SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"], "/data/Movies/": ["/movies/"] },
    SERVER_FILE_EXIST_PATH_MAPPINGS: servers.localMappings,
    PLEX_LOCAL_URL: servers.plex.url,
    PLEX_TOKEN: servers.plex.token,
    PLEX_CONFIRM_POLL_INTERVAL: options.pollSec,
    TARGETS: servers.targets,
    ...(options.delay === "default" ? {} : { SERVER_SCAN_DELAY: options.delay }),
  };
  const paths = resolveInstallPaths(path.join(dir, "install"));
  mkdirSync(paths.dataDir, { recursive: true });
  const deps = { logger: silentLogger(), clock, env: {} };
  const confirming = await confirmingTargets(config, deps);
  const service = await startService({ config: withPlexEntry(config), paths, ...deps });
  const db = new Database(paths.database, { readonly: true, fileMustExist: true });
  try {
    const url = `http://127.0.0.1:${service.port}/${BENCH_PASS}`;
    const postings = plan.events.flatMap((e) => e.postings).sort((a, b) => a.at - b.at);
    const openScans = db.prepare("SELECT COUNT(*) AS n FROM scan_queue WHERE state IN ('open', 'closed')").pluck();
    const settled = settler(db, {
      requestsSeen: () => servers.plex.requests.length + servers.jellyfin.requests.length + servers.emby.requests.length,
      fileRoundDue: fileRoundDue(db, clock),
    });
    let next = 0;
    let steps = 0;
    let refused = 0;
    for (;;) {
      await settled();
      const busy = (openScans.get() as number) > 0;
      const postAt = next < postings.length ? DAY_START + (postings[next]?.at ?? 0) : Infinity;
      const at = Math.min(clock.nextDue(), postAt);
      if (at === Infinity || (postAt === Infinity && (!busy || clock.now() > DAY_START + DAY_MS + GIVE_UP_AFTER_MS))) break;
      clock.stepTo(at);
      steps += 1;
      for (let p = postings[next]; p !== undefined && DAY_START + p.at <= clock.now(); p = postings[++next]) {
        servers.change(p.adds, p.removes);
        const answer = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(p.body) });
        await answer.arrayBuffer();
        if (answer.status !== 202) refused += 1;
        await settled();
      }
    }
    const stuck = openScans.get() as number;
    const targets = collectFigures(db, plan, { dayStart: DAY_START, confirming, scansOf: servers.scansOf });
    return {
      delaySec: config.SERVER_SCAN_DELAY,
      targets,
      sent: postings.length,
      refused,
      steps,
      wallMs: performance.now() - started,
      stuck,
    };
  } finally {
    db.close();
    await service.stop();
  }
}

/** Targets whose scans the service confirms, as built from this config (a capability, read at run time). */
async function confirmingTargets(config: Config, deps: Pick<Parameters<typeof buildTargets>[1], "logger" | "env">): Promise<Set<string>> {
  const controller = new AbortController();
  // A clock of its own: whatever these throw-away targets arm never fires.
  const built = await buildTargets(withPlexEntry(config), { ...deps, clock: new StepClock(0), signal: controller.signal });
  controller.abort();
  return new Set(built.filter((b) => b.target.afterScan?.settings.waitsForSection === true).map((b) => b.target.name));
}

/**
 * Whether a file-check round is due and not yet recorded: its stats run in
 * the probe's child process, which the settler cannot see, and stepping the
 * clock meanwhile would fire the probe's time-out first.
 */
function fileRoundDue(db: Database.Database, clock: StepClock): () => boolean {
  const due = db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM scan_queue WHERE files_state = 'waiting' AND file_check_at <= ? AND due_at <= ?
       AND state IN ('open', 'closed'))`,
    )
    .pluck();
  return () => due.get(clock.now(), clock.now()) === 1;
}

/** How long the settler waits for a due file-check round before it steps anyway (a round that never starts). */
const FILE_ROUND_WAIT_MS = 2_000;

/**
 * Resolves once the service has finished what the last step started: no
 * HTTP call in flight, no file-system call pending, no file-check round due
 * (for 2 s of real time at most), and neither the database nor the fakes'
 * request logs changed over three looks 2 ms apart.
 */
function settler(db: Database.Database, seen: { requestsSeen: () => number; fileRoundDue: () => boolean }): () => Promise<void> {
  const version = db.prepare("PRAGMA data_version").pluck();
  const inFlight = () =>
    Object.values(globalAgent.sockets).reduce((n, list) => n + (list?.length ?? 0), 0) +
    Object.values(globalAgent.requests).reduce((n, list) => n + (list?.length ?? 0), 0) +
    process.getActiveResourcesInfo().filter((r) => r.startsWith("FSReq")).length;
  const look = () => `${version.get() as number}/${seen.requestsSeen()}/${inFlight()}`;
  return async () => {
    const roundsUntil = performance.now() + FILE_ROUND_WAIT_MS;
    let last = look();
    for (let quiet = 0; quiet < 3; ) {
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 2));
      const now = look();
      const waiting = inFlight() > 0 || (performance.now() < roundsUntil && seen.fileRoundDue());
      quiet = now === last && !waiting ? quiet + 1 : 0;
      last = now;
    }
  };
}
