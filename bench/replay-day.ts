/**
 * The figure users feel: a seeded day of Sonarr and Radarr traffic (single
 * imports, season packs with Import Complete, upgrades, renames, deletes,
 * movie imports; bench/lib/replay-plan.ts) replayed against the real
 * service in process on 127.0.0.1, with the fake Plex, Jellyfin and Emby
 * taking `--scan-seconds` to scan, on an injected clock that steps from one
 * timer or webhook to the next. Per target: request → scan asked and request → confirmed
 * (p50/p95), scans per imported folder; one column per `--delay`. Prints
 * PASS/FAIL per target line; exits 1 when one fails.
 *
 *   node --import tsx bench/replay-day.ts [--delay default] [--delay 180] [--seed 1] [--scan-seconds 5] [--poll 10]
 */
import { parseArgs } from "node:util";
import { runCleanup } from "./lib/cleanup.js";
import type { TargetFigures } from "./lib/replay-figures.js";
import { planDay } from "./lib/replay-plan.js";
import { replayDay, type ReplayOptions, type ReplayResult } from "./lib/replay-run.js";

const USAGE = "usage: replay-day.ts [--delay default|SECONDS]... [--seed N] [--scan-seconds S] [--monitor-delay S] [--poll S]";

const values = (() => {
  try {
    return parseArgs({
      options: {
        delay: { type: "string", multiple: true },
        seed: { type: "string", default: "1" },
        "scan-seconds": { type: "string", default: "5" },
        "monitor-delay": { type: "string", default: "60" },
        poll: { type: "string", default: "10" },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
})();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const number = (text: string, what: string, min: number): number => {
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || n < min) {
    console.error(`${what} must be a number ≥ ${min}, not "${text}"\n${USAGE}`);
    process.exit(2);
  }
  return n;
};
const delays = (values.delay ?? ["default", "180"]).map((d) => (d === "default" ? "default" : number(d, "--delay", 0)));
const seed = number(values.seed, "--seed", 0);
const scanMs = number(values["scan-seconds"], "--scan-seconds", 0) * 1_000;
const monitorDelayMs = number(values["monitor-delay"], "--monitor-delay", 0) * 1_000;
const pollSec = number(values.poll, "--poll", 1);

const TARGETS = { p50: 20_000, p95: 60_000, scansPerFolder: 1.05 };

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}
const sec = (ms: number) => (Number.isNaN(ms) ? "-" : ms === Infinity ? "never" : `${(ms / 1_000).toFixed(1)} s`);
/** Request → confirmed over every request: one never confirmed (unconfirmed, not taken) counts as never. */
const confirmedTimes = (t: TargetFigures) => [...t.confirmedMs, ...Array<number>(t.requests - t.confirmedMs.length).fill(Infinity)];
const label = (delay: ReplayOptions["delay"], r: ReplayResult) => (delay === "default" ? `default (${r.delaySec} s)` : `delay ${delay} s`);

try {
  const plan = planDay(seed);
  const postings = plan.events.flatMap((e) => e.postings);
  const counts = new Map<string, number>();
  for (const e of plan.events) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  const kinds = [...counts].map(([kind, n]) => `${n} ${kind}`);
  console.log(`day (seed ${seed}): ${postings.length} webhooks in ${plan.events.length} events (${kinds.join(", ")})`);
  console.log(
    `fake servers scan in ${scanMs / 1_000} s (Jellyfin's and Emby's Media/Updated after their LibraryMonitorDelay, ${monitorDelayMs / 1_000} s; their item refreshes at once); confirmation poll ${pollSec} s; injected clock, stepped from one event to the next`,
  );
  const runs: Array<{ name: string; result: ReplayResult }> = [];
  for (const delay of delays) {
    const result = await replayDay(plan, { delay, scanMs, monitorDelayMs, pollSec });
    const name = label(delay, result);
    runs.push({ name, result });
    const notes = [
      result.refused ? `${result.refused} webhooks not answered 202` : "",
      result.stuck ? `${result.stuck} scans still open` : "",
    ];
    console.log(`${name}: ${result.steps} clock steps, ${(result.wallMs / 1_000).toFixed(1)} s wall ${notes.filter(Boolean).join("; ")}`);
  }
  const rows = runs.flatMap(({ name, result }) => result.targets.map((t) => ({ config: name, ...describe(t) })));
  console.table(rows);
  console.log("request → confirmed by kind of event, p50 / p95 (targets that confirm):");
  console.table(runs.flatMap(({ name, result }) => byKind(name, result.targets)));
  let failed = false;
  for (const { name, result } of runs) {
    for (const t of result.targets) {
      for (const line of checks(t)) {
        failed ||= line.startsWith("FAIL");
        console.log(`${line}  [${t.name}, ${name}]`);
      }
    }
  }
  if (failed || runs.some((r) => r.result.refused > 0)) process.exitCode = 1;
} finally {
  await runCleanup();
}

function byKind(config: string, targets: TargetFigures[]): Array<Record<string, string | number>> {
  const confirming = targets.filter((t) => t.confirms);
  const kinds = [...new Set(confirming.flatMap((t) => [...t.confirmedByKind.keys()]))];
  return kinds.map((kind) => ({
    config,
    kind,
    requests: confirming[0]?.confirmedByKind.get(kind)?.length ?? 0,
    ...Object.fromEntries(
      confirming.map((t) => {
        const times = t.confirmedByKind.get(kind) ?? [];
        return [t.name, `${sec(percentile(times, 50))} / ${sec(percentile(times, 95))}`];
      }),
    ),
  }));
}

function describe(t: TargetFigures): Record<string, string | number> {
  const confirmed = (p: number) => (t.confirms ? sec(percentile(confirmedTimes(t), p)) : "not confirmed by this target");
  return {
    target: t.name,
    requests: t.requests,
    "asked p50": sec(percentile(t.askedMs, 50)),
    "asked p95": sec(percentile(t.askedMs, 95)),
    "confirmed p50": confirmed(50),
    "confirmed p95": confirmed(95),
    unconfirmed: t.confirms ? t.unconfirmed : "-",
    "not taken": t.undelivered,
    "scans/imported folder": (t.scans / t.importFolderChanges).toFixed(2),
  };
}

function checks(t: TargetFigures): string[] {
  const mark = (ok: boolean) => (ok ? "PASS" : "FAIL");
  const ratio = t.scans / t.importFolderChanges;
  // Fewer scans than folders is no win when requests were never scanned.
  const missed = t.undelivered > 0 ? ` (${t.undelivered} of ${t.requests} requests never scanned)` : "";
  const lines = [
    `${mark(ratio <= TARGETS.scansPerFolder && missed === "")} scans per imported folder ${ratio.toFixed(2)} ≤ ${TARGETS.scansPerFolder}${missed}`,
  ];
  if (!t.confirms) return [`---- request → confirmed: not confirmed by this target`, ...lines];
  const [p50, p95] = [percentile(confirmedTimes(t), 50), percentile(confirmedTimes(t), 95)];
  const never = t.requests - t.confirmedMs.length;
  return [
    `${mark(p50 <= TARGETS.p50)} p50 request → confirmed ${sec(p50)} ≤ ${sec(TARGETS.p50)}`,
    `${mark(p95 <= TARGETS.p95)} p95 request → confirmed ${sec(p95)} ≤ ${sec(TARGETS.p95)}${never ? ` (${never} of ${t.requests} never confirmed)` : ""}`,
    ...lines,
  ];
}
