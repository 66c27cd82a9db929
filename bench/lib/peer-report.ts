import { median } from "./median.js";
import type { WrkResult } from "./wrk.js";

/** One wrk run against one server of the side-by-side. */
export interface PeerRun extends WrkResult {
  /** The server's CPU µs (user + system) per answered request. */
  cpuUsPerReq: number;
  /** RSS in MB when the server listened, before any request. */
  rssIdle: number;
  /** RSS in MB right after this run. */
  rssAfter: number;
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * The medians of the rounds as one Markdown table, a row per server and
 * phase (cold: its first seconds after it listens; warm: the next), with the
 * ratios to the bare server's same phase, and each round's req/s and p99.
 */
export function printPeerTable(runs: Map<string, { cold: PeerRun[]; warm: PeerRun[] }>, reference: string): void {
  const ref = runs.get(reference);
  console.log(
    "| server | phase | req/s | × bare | p50 ms | p99 ms | p99 ÷ bare | non-2xx | socket errors | µs CPU/req | RSS idle MB | RSS after MB | req/s each round | p99 ms each round |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
  for (const [name, phases] of runs) {
    for (const phase of ["cold", "warm"] as const) {
      const list = phases[phase];
      const m = (f: (r: PeerRun) => number) => median(list.map(f));
      const refRate = median((ref?.[phase] ?? []).map((r) => r.perSec));
      const refP99 = median((ref?.[phase] ?? []).map((r) => r.p99));
      const non2xx = list.reduce((n, r) => n + r.non2xx, 0);
      const socket = list.reduce((n, r) => n + r.errors - r.non2xx, 0);
      console.log(
        `| ${name} | ${phase} | ${int(m((r) => r.perSec))} | ${(m((r) => r.perSec) / refRate).toFixed(2)} | ${m((r) => r.p50).toFixed(1)} | ${m((r) => r.p99).toFixed(1)} | ${(m((r) => r.p99) / refP99).toFixed(1)} | ${non2xx} | ${socket} | ${int(m((r) => r.cpuUsPerReq))} | ${m((r) => r.rssIdle).toFixed(1)} | ${m((r) => r.rssAfter).toFixed(1)} | ${list.map((r) => int(r.perSec)).join(" / ")} | ${list.map((r) => r.p99.toFixed(0)).join(" / ")} |`,
      );
    }
  }
  console.log("(medians of the rounds; non-2xx and socket errors are totals; the bare server's CPU is its own)");
}
