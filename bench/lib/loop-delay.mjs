// Preloaded into a bench's `serve` child (node --import): every second, the
// longest event-loop delay of that second and the time serve held its
// requests go to SCANARR_BENCH_LOOP_FILE as
// "<epoch ms> <loop max ms> <loop p99 ms> <request max ms> <request p99 ms> <requests>".
// A request can wait no longer than the loop delay for the loop, whatever the
// load generator's own pauses add to the latency it sees; the request time
// runs from its headers parsed to its answer handed to the kernel, so a
// latency a client sees far above it was spent outside serve (the socket
// queues, the client, the scheduler).
import { appendFileSync } from "node:fs";
import { Server } from "node:http";
import { createHistogram, monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.SCANARR_BENCH_LOOP_FILE;
if (file) {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const held = createHistogram();
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (...args) {
    if (args[0] === "request") {
      const start = process.hrtime.bigint();
      args[2].once("finish", () => held.record(Math.max(1, Number((process.hrtime.bigint() - start) / 1000n))));
    }
    return emit.apply(this, args);
  };
  const ms = (ns) => (ns / 1e6).toFixed(1);
  const msOfUs = (us) => (held.count > 0 ? (us / 1e3).toFixed(1) : "0.0");
  setInterval(() => {
    appendFileSync(
      file,
      `${Date.now()} ${ms(loop.max)} ${ms(loop.percentile(99))} ${msOfUs(held.max)} ${msOfUs(held.percentile(99))} ${held.count}\n`,
    );
    loop.reset();
    held.reset();
  }, 1_000).unref();
}
