/**
 * Folders per request through the autoscan-compatible routes of a real
 * `scanarr serve` (a child process, log level info as by default), each case
 * against a fresh install: one A-Train request (`POST
 * /<pass>/triggers/a-train/<drive>`, two thirds of its folders `created`, a
 * third `deleted`) against the same folders as `dir` lines of the manual form
 * (`POST /<pass>/triggers/manual`), at two sizes 4 times apart, so a step
 * that grows faster than the folder count shows in the time per folder. Then
 * the issue's body, 20,000 created + 10,000 deleted folders, once all
 * distinct (30,000 paths: over the 25,000-path limit) and once with the
 * deleted ones among the created (20,000 distinct). The time per folder is
 * serve's CPU time (/proc), which moves less than the wall time on a busy
 * machine.
 *
 *   node --import tsx bench/a-train.ts [small=6000] [large=24000] [--cpu-prof <dir>]
 */
import path from "node:path";
import { BENCH_PASS, benchInstall } from "./lib/bench-config.js";
import { runCleanup } from "./lib/cleanup.js";
import { readCpuSeconds } from "./lib/proc.js";
import { startServeChild } from "./lib/serve-child.js";

const args = process.argv.slice(2);
const profIndex = args.indexOf("--cpu-prof");
const cpuProfDir = profIndex >= 0 ? path.resolve(args.splice(profIndex, 2)[1] ?? "cpu-profiles") : undefined;
const [small = 6_000, large = 24_000] = args.map(Number);

/** Short distinct season folders, so 30,000 of them fit in the 1 MiB body limit. */
function folders(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `/tv/S${Math.floor((from + i) / 100)}/${(from + i) % 100}`);
}

interface Case {
  name: string;
  folders: number;
  send(origin: string): Promise<Response>;
}

function aTrainCase(c: number, d: number, deletedFrom = c): Case {
  const body = JSON.stringify({ created: folders(0, c), deleted: folders(deletedFrom, d) });
  const distinct = Math.max(c, deletedFrom + d);
  return {
    name: `a-train ${c} created + ${d} deleted${distinct < c + d ? ` (${distinct} distinct)` : ""}`,
    folders: distinct,
    send: (origin) =>
      fetch(`${origin}/${BENCH_PASS}/triggers/a-train/drive1`, { method: "POST", headers: { "content-type": "application/json" }, body }),
  };
}

function manualCase(count: number): Case {
  const body = new URLSearchParams({ dir: folders(0, count).join("\n") }).toString();
  return {
    name: `manual form, ${count} dir lines`,
    folders: count,
    send: (origin) =>
      fetch(`${origin}/${BENCH_PASS}/triggers/manual`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body,
      }),
  };
}

async function run(c: Case): Promise<void> {
  const { installDir } = await benchInstall();
  const serve = await startServeChild(installDir, { logLevel: "info", cpuProfDir });
  try {
    const origin = `http://127.0.0.1:${serve.port}`;
    // A small request first, so the measured one does not pay for loading modules.
    await aTrainCase(2, 1).send(origin);
    const cpuBefore = readCpuSeconds(serve.pid);
    const started = performance.now();
    const res = await c.send(origin);
    const answer = (await res.json()) as { queued?: string[]; error?: string };
    const took = performance.now() - started;
    // serve's own CPU time: what the request cost, whatever else the machine is doing.
    const cpuMs = (readCpuSeconds(serve.pid) - cpuBefore) * 1000;
    const perFolder = (cpuMs * 1000) / c.folders;
    console.log(
      `| ${c.name} | ${res.status} | ${answer.queued?.length ?? answer.error} | ${took.toFixed(0)} ms | ${cpuMs.toFixed(0)} ms | ${perFolder.toFixed(1)} µs |`,
    );
  } finally {
    await serve.stop();
  }
}

try {
  console.log(`Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
  console.log("| request | status | queued | wall time | serve CPU | CPU per folder |");
  console.log("|---|---:|---:|---:|---:|---:|");
  const split = (n: number) => [Math.round((n * 2) / 3), n - Math.round((n * 2) / 3)] as const;
  for (const n of [small, large]) {
    await run(manualCase(n));
    await run(aTrainCase(...split(n)));
  }
  await run(aTrainCase(20_000, 10_000));
  await run(aTrainCase(20_000, 10_000, 5_000));
} finally {
  await runCleanup();
}
