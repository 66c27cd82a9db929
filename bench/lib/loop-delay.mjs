// Preloaded into a bench's `serve` child (node --import): every second, the
// longest event-loop delay of that second goes to SCANARR_BENCH_LOOP_FILE as
// "<epoch ms> <max ms> <p99 ms>". A request can wait no longer than that for the loop,
// whatever the load generator's own pauses add to the latency it sees.
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.SCANARR_BENCH_LOOP_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  setInterval(() => {
    appendFileSync(file, `${Date.now()} ${(histogram.max / 1e6).toFixed(1)} ${(histogram.percentile(99) / 1e6).toFixed(1)}\n`);
    histogram.reset();
  }, 1_000).unref();
}
