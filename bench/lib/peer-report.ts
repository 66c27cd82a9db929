import type { WrkResult } from "./wrk.js";

/** One wrk run against one server of the side-by-side. */
export interface PeerRun extends WrkResult {
  /** The server's CPU seconds (user + system) per 10,000 requests wrk completed. */
  cpuPer10k: number;
  /** RSS in MB after the server started and settled, before any load. */
  rssIdle: number;
  /** RSS in MB right after this run. */
  rssAfter: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const int = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * The medians of the rounds as one Markdown table, a row per server and
 * phase (cold: the first run after the start; warm: the second), with the
 * ratios to the bare server's same phase, and each round's req/s and p99.
 */
export function printPeerTable(runs: Map<string, { cold: PeerRun[]; warm: PeerRun[] }>, reference = "bare node:http"): void {
  const ref = runs.get(reference);
  console.log(
    "| server | run | req/s | × bare | p50 ms | p99 ms | p99 ÷ bare | non-2xx | socket errors | CPU s / 10k req | RSS idle MB | RSS after MB | req/s each round | p99 ms each round |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
  for (const [name, phases] of runs) {
    for (const phase of ["cold", "warm"] as const) {
      const list = phases[phase];
      const m = (f: (r: PeerRun) => number) => median(list.map(f));
      const refRate = median((ref?.[phase] ?? []).map((r) => r.perSec));
      const refP99 = median((ref?.[phase] ?? []).map((r) => r.p99));
      const non2xx = list.reduce((n, r) => n + (r.non2xx ?? 0), 0);
      const socket = list.reduce((n, r) => n + r.errors - (r.non2xx ?? 0), 0);
      console.log(
        `| ${name} | ${phase} | ${int(m((r) => r.perSec))} | ${(m((r) => r.perSec) / refRate).toFixed(2)} | ${m((r) => r.p50).toFixed(1)} | ${m((r) => r.p99).toFixed(1)} | ${(m((r) => r.p99) / refP99).toFixed(1)} | ${non2xx} | ${socket} | ${m((r) => r.cpuPer10k).toFixed(2)} | ${m((r) => r.rssIdle).toFixed(1)} | ${m((r) => r.rssAfter).toFixed(1)} | ${list.map((r) => int(r.perSec)).join(" / ")} | ${list.map((r) => r.p99.toFixed(0)).join(" / ")} |`,
      );
    }
  }
  console.log("(medians of the rounds; non-2xx and socket errors are totals; the bare server's CPU is its own)");
}
