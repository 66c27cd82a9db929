/**
 * How long after a media server's return every held scan is delivered (issue
 * #20, item 5). The queue, the scheduler and the real Plex target talk HTTP
 * to the loopback fake Plex; time is an injected clock (ManualClock), and so
 * is the request time-out (a fetch wrapper aborts a call the fake leaves
 * hanging once the clock has moved the time-out), so a 50 s hang and a 60 s
 * 503 take a few seconds of real time and give the same figures on any
 * machine.
 *
 * Cases, each at jitter 0, 0.5 and 0.999 (the two ends and the middle of the
 * backoff's random part): a 50 s hang with Plex's 10 s time-out and with the
 * 30 s of the other HTTP targets, once with every scan waiting when it starts
 * and once with one scan waiting and the rest falling due 20 s in; 60 s of
 * 503. Reports the calls sent during the outage, the failures counted
 * (/health's `failures`) at the return, and when the last held scan was
 * delivered, counted from the return.
 *
 *   node --import tsx bench/outage-recovery.ts [scans=20] [concurrency=4]
 */
import { withPlexEntry } from "../src/config/plex-entry.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultConfig } from "../src/config/defaults.js";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { openDatabase } from "../src/queue/storage/database.js";
import { ScanQueue } from "../src/queue/scan-queue.js";
import { startDelivery } from "../src/delivery/scheduler.js";
import { buildTargets } from "../src/targets/build-targets.js";
import { startFakePlex, type FakePlex } from "../test/fakes/plex.js";
import { BENCH_SECTIONS } from "./lib/bench-config.js";

const [scans = 20, concurrency = 4] = process.argv.slice(2).map(Number);
const STEP_MS = 250;
const GIVE_UP_AFTER_RETURN_MS = 15 * 60_000;

interface Case {
  name: string;
  mode: "hang" | 503;
  downMs: number;
  timeoutMs: number;
  /** [ms into the outage, scans falling due then] */
  arrivals: Array<[number, number]>;
}

interface Figures {
  callsDuringOutage: number;
  failuresAtReturn: number;
  deliveredWithin30s: number;
  lastAfterReturnMs: number;
}

const allWaiting: Array<[number, number]> = [[0, scans]];
const mostDuring: Array<[number, number]> = [
  [0, 1],
  [20_000, scans - 1],
];
const CASES: Case[] = [
  { name: "50 s hang, 10 s time-out (Plex), all waiting", mode: "hang", downMs: 50_000, timeoutMs: 10_000, arrivals: allWaiting },
  { name: "50 s hang, 10 s time-out (Plex), most due 20 s in", mode: "hang", downMs: 50_000, timeoutMs: 10_000, arrivals: mostDuring },
  { name: "50 s hang, 30 s time-out, all waiting", mode: "hang", downMs: 50_000, timeoutMs: 30_000, arrivals: allWaiting },
  { name: "50 s hang, 30 s time-out, most due 20 s in", mode: "hang", downMs: 50_000, timeoutMs: 30_000, arrivals: mostDuring },
  { name: "60 s of 503, all waiting", mode: 503, downMs: 60_000, timeoutMs: 10_000, arrivals: allWaiting },
];

/** fetch with its time-out on the injected clock; counts the calls the fake will answer, to wait for them. */
function clockFetch(clock: ManualClock, timeoutMs: number, answering: () => boolean) {
  let outstanding = 0;
  const wrapped: typeof fetch = async (input, init) => {
    const controller = new AbortController();
    const timer = clock.setTimeout(() => controller.abort(new DOMException("no answer", "TimeoutError")), timeoutMs);
    const answered = answering();
    if (answered) outstanding++;
    try {
      const response = await fetch(input, { ...init, signal: controller.signal });
      await response.clone().arrayBuffer();
      return response;
    } finally {
      clock.clearTimeout(timer);
      if (answered) outstanding--;
    }
  };
  return { fetch: wrapped, outstanding: () => outstanding };
}

async function settle(outstanding: () => number): Promise<void> {
  for (let i = 0; i < 2_000 && outstanding() > 0; i++) await new Promise((r) => setTimeout(r, 1));
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
}

async function runCase(c: Case, jitter: number): Promise<Figures> {
  const plex: FakePlex = await startFakePlex({ sections: BENCH_SECTIONS });
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-bench-outage-"));
  const clock = new ManualClock();
  const logger = silentLogger();
  let down = false;
  const client = clockFetch(clock, c.timeoutMs, () => !(down && c.mode === "hang"));
  const config = { ...defaultConfig("0123456789abcdef0123456789abcdef"), PLEX_LOCAL_URL: plex.url, PLEX_TOKEN: plex.token };
  // The target's own (real-time) time-out never fires here: the clock's does.
  const targets = await buildTargets(withPlexEntry(config), { logger, clock, fetch: client.fetch, timeoutMs: 3_600_000 });
  const db = openDatabase(path.join(dir, "queue.db"));
  const queue = new ScanQueue({ db, clock, targets: targets.map((t) => t.target.name), delayMs: 0, logger });
  try {
    await targets[0]?.libraries.refreshLibraries();
    const delivery = startDelivery({ queue, targets, clock, logger, random: () => jitter, policy: { concurrencyPerTarget: concurrency } });
    const start = clock.now();
    const back = start + c.downMs;
    down = true;
    plex.setMode(c.mode);
    let folder = 0;
    let calls = 0;
    let failuresAtReturn = 0;
    let lastAt = Number.NaN;
    let within30 = 0;
    const arrivals = [...c.arrivals];
    const before = plex.requests.length;
    while (clock.now() < back + GIVE_UP_AFTER_RETURN_MS) {
      while (arrivals.length > 0 && (arrivals[0]?.[0] ?? 0) <= clock.now() - start) {
        const [, count] = arrivals.shift() as [number, number];
        queue.enqueue(
          Array.from({ length: count }, () => ({ folder: `/data/TV/Show ${folder++}/Season 1`, source: "bench", event: "Outage" })),
        );
      }
      if (down && clock.now() >= back) {
        calls = plex.requests.length - before;
        failuresAtReturn = delivery.targetStates().plex?.failures ?? 0;
        down = false;
        plex.setMode("ok");
      }
      clock.advance(STEP_MS);
      await settle(client.outstanding);
      if (!down && plex.refreshes.length >= scans && Number.isNaN(lastAt)) {
        lastAt = clock.now() - back;
        break;
      }
      if (!down && clock.now() - back <= 30_000) within30 = plex.refreshes.length;
    }
    await delivery.stop(0);
    return {
      callsDuringOutage: calls,
      failuresAtReturn,
      deliveredWithin30s: Number.isNaN(lastAt) || lastAt > 30_000 ? within30 : scans,
      lastAfterReturnMs: lastAt,
    };
  } finally {
    for (const t of targets) t.stop();
    db.close();
    await plex.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `Node ${process.version}; ${new Date().toISOString().slice(0, 10)}; ${scans} scans, ${concurrency} calls in flight; injected clock`,
);
console.log(
  "| case | jitter | calls during the outage | failures at the return | delivered ≤ 30 s after | last delivered after the return |",
);
console.log("|---|---:|---:|---:|---:|---:|");
for (const c of CASES) {
  for (const jitter of [0, 0.5, 0.999]) {
    const f = await runCase(c, jitter);
    const last = Number.isNaN(f.lastAfterReturnMs)
      ? `> ${GIVE_UP_AFTER_RETURN_MS / 1000} s`
      : `${(f.lastAfterReturnMs / 1000).toFixed(1)} s`;
    console.log(
      `| ${c.name} | ${jitter} | ${f.callsDuringOutage} | ${f.failuresAtReturn} | ${f.deliveredWithin30s} of ${scans} | ${last} |`,
    );
  }
}
