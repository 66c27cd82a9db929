import { renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./cli.js";
import { postJson, startTestService } from "./service.js";

/** A time range on `performance.now()`; `to` is Infinity while still open. */
export interface Gap {
  from: number;
  to: number;
}

/** A small seeded PRNG (mulberry32): the same seed flaps the same way. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Removes and restores `file` at random: gone for `goneMs`, there for
 * `presentMs` (each [min, max]). The gaps recorded are the times the file
 * was certainly gone: from just after the unlink returned to just before the
 * rename that brings it back starts.
 */
export function flapFile(file: string, random: () => number, goneMs: [number, number], presentMs: [number, number]) {
  const gaps: Gap[] = [];
  const spare = `${file}.spare`;
  const pick = ([min, max]: [number, number]) => min + random() * (max - min);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const drop = (): void => {
    if (stopped) return;
    unlinkSync(file);
    gaps.push({ from: performance.now(), to: Infinity });
    timer = setTimeout(restore, pick(goneMs));
  };
  const restore = (): void => {
    writeFileSync(spare, "");
    const gap = gaps.at(-1);
    if (gap) gap.to = performance.now();
    renameSync(spare, file);
    if (!stopped) timer = setTimeout(drop, pick(presentMs));
  };
  timer = setTimeout(drop, pick(presentMs));
  return {
    gaps,
    /** Stops flapping and leaves the file there. */
    stop(): void {
      stopped = true;
      clearTimeout(timer);
      if (gaps.at(-1)?.to === Infinity) restore();
    },
  };
}

export interface FlapRunOptions {
  /** How long the anchor flaps while webhooks stream in. */
  seconds: number;
  seed: number;
  /** A scan arriving later than this after the anchor vanished (and before it was back) is a violation. */
  boundMs: number;
  /** How the anchor flaps: gone and present durations, [min, max] ms. */
  goneMs?: [number, number];
  presentMs?: [number, number];
  /** Pause between two webhooks (each waits for its answer). */
  webhookEveryMs?: number;
  /** How long to wait, once the anchor stays, for every acknowledged folder to reach Plex. */
  drainMs?: number;
}

export interface FlapRunResult {
  acknowledged: number;
  gaps: number;
  /** Scans Plex received while the anchor flapped. */
  scansWhileFlapping: number;
  /** Of those, scans that arrived while the anchor was there. */
  whilePresent: number;
  /** Scans that arrived in a gap at all, and later than boundMs into it. */
  inGap: number;
  violations: number;
  /** How far into its gap the latest-arriving scan came (ms), 0 when none did. */
  worstLateMs: number;
  /** Gaps in which at least one scan arrived more than boundMs after the anchor vanished. */
  gapsWithViolations: number;
  /** Acknowledged folders that never reached Plex, and folders Plex was asked to scan more than once. */
  undelivered: string[];
  duplicates: string[];
}

const TV = "/data/TV/";

/**
 * The real service (in process) with one anchor file that flaps, a fake
 * Plex recording when each scan arrives, and manual-scan webhooks for new
 * folders streaming in. After `seconds` the anchor stays; every acknowledged
 * folder must then reach Plex within `drainMs`.
 */
export async function runAnchorFlap(options: FlapRunOptions): Promise<FlapRunResult> {
  const anchor = path.join(tempDir("scanarr-flap-"), "mounted.bin");
  writeFileSync(anchor, "");
  const t = await startTestService({ ANCHORS: [anchor] }, { anchorPollMs: 200 });
  try {
    const flapper = flapFile(anchor, seededRandom(options.seed), options.goneMs ?? [50, 600], options.presentMs ?? [50, 400]);
    const acknowledged: string[] = [];
    const until = performance.now() + options.seconds * 1000;
    for (let i = 0; performance.now() < until; i++) {
      const folder = `Flap ${i}/Season 1`;
      const { status } = await postJson(t.base, { eventType: "Manual", filepath: `/tv/${folder}` });
      if (status === 202) acknowledged.push(TV + folder);
      await new Promise((resolve) => setTimeout(resolve, options.webhookEveryMs ?? 10));
    }
    const flapEnd = performance.now();
    flapper.stop();
    const gaps = flapper.gaps;
    const arrivals = () => t.plex.requests.filter((r) => /\/refresh\?/.test(r.url));
    const drainUntil = performance.now() + (options.drainMs ?? 15_000);
    while (performance.now() < drainUntil && new Set(t.plex.refreshes.map((r) => r.path)).size < acknowledged.length) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const whileFlapping = arrivals().filter((r) => r.at <= flapEnd);
    let inGap = 0;
    let violations = 0;
    let worstLateMs = 0;
    const late = new Set<Gap>();
    for (const { at } of arrivals()) {
      const gap = gaps.find((g) => g.from <= at && at < g.to);
      if (!gap) continue;
      inGap += 1;
      worstLateMs = Math.max(worstLateMs, at - gap.from);
      if (at - gap.from > options.boundMs) {
        violations += 1;
        late.add(gap);
      }
    }
    const counts = new Map<string, number>();
    for (const r of t.plex.refreshes) counts.set(r.path ?? "", (counts.get(r.path ?? "") ?? 0) + 1);
    return {
      acknowledged: acknowledged.length,
      gaps: gaps.length,
      scansWhileFlapping: whileFlapping.length,
      whilePresent: whileFlapping.length - inGap,
      inGap,
      violations,
      worstLateMs: Math.round(worstLateMs),
      gapsWithViolations: late.size,
      undelivered: acknowledged.filter((f) => !counts.has(f)),
      duplicates: [...counts].filter(([, n]) => n > 1).map(([f]) => f),
    };
  } finally {
    await t.stop();
  }
}
