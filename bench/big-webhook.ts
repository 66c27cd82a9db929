/**
 * One big webhook against the real `scanarr serve` (a child process): a Sonarr
 * "On Import Complete" body whose `episodeFiles` names 20,000 files, each in a
 * season folder of its own (the worst case for de-duplication), while a probe
 * asks GET /health every 20 ms. Reports how long the big request took, its
 * answer, the slowest probe (how long every other request was blocked) and
 * serve's longest event-loop delay meanwhile (bench/lib/loop-delay.mjs).
 *
 *   node --import tsx bench/big-webhook.ts [files=20000] [filesPerFolder=1] [--cpu-prof <dir>]
 */
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { startFakePlex } from "../test/fakes/plex.js";
import { BENCH_PASS, BENCH_SECTIONS, benchConfig, writeBenchConfig } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import { startServeChild } from "./lib/serve-child.js";

const args = process.argv.slice(2);
const profIndex = args.indexOf("--cpu-prof");
const cpuProfDir = profIndex >= 0 ? path.resolve(args.splice(profIndex, 2)[1] ?? "cpu-profiles") : undefined;
const [files = 20_000, perFolder = 1] = args.map(Number);
const PROBE_EVERY_MS = 20;

/** A minimal but valid Sonarr body: every entry carries only its absolute path, so 20,000 fit in 1 MiB. */
export function bigImportBody(count: number, filesPerFolder: number): string {
  const entries: string[] = [];
  for (let i = 0; i < count; i++) {
    const season = Math.floor(i / filesPerFolder) + 1;
    entries.push(`{"path":"/tv/Big/S${season}/e${i}.mkv"}`);
  }
  return `{"eventType":"Download","series":{"path":"/tv/Big"},"episodeFiles":[${entries.join(",")}]}`;
}

try {
  const plex = await startFakePlex({ sections: BENCH_SECTIONS });
  onCleanup(() => plex.close());
  const dir = makeTempDir();
  writeBenchConfig(dir, benchConfig(plex.url, plex.token));
  const serve = await startServeChild(dir, { logLevel: "info", cpuProfDir });
  const origin = `http://127.0.0.1:${serve.port}`;
  const body = bigImportBody(files, perFolder);
  // One small request first, so the measured one does not pay for loading modules.
  await fetch(`${origin}/${BENCH_PASS}`, { method: "POST", headers: { "content-type": "application/json" }, body: bigImportBody(10, 10) });

  let probing = true;
  let slowest = 0;
  let probes = 0;
  let probeErrors = 0;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      try {
        await (await fetch(`${origin}/health`)).arrayBuffer();
      } catch {
        probeErrors++;
      }
      slowest = Math.max(slowest, performance.now() - started);
      probes++;
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  await new Promise((r) => setTimeout(r, 200));
  const started = performance.now();
  const from = Date.now();
  const res = await fetch(`${origin}/${BENCH_PASS}`, { method: "POST", headers: { "content-type": "application/json" }, body });
  const answer = (await res.json()) as { queued?: string[]; covered?: string[]; error?: string };
  const took = performance.now() - started;
  await new Promise((r) => setTimeout(r, 200));
  probing = false;
  await probe;
  const loopMax = serve.loopDelayMax(from, Date.now());

  const folders = Math.ceil(files / perFolder);
  console.log(`Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
  console.log(`body:              ${(Buffer.byteLength(body) / 1024).toFixed(0)} KiB, ${files} episodeFiles in ${folders} folders`);
  console.log(
    `answer:            ${res.status} ${answer.error ?? `queued ${answer.queued?.length ?? 0}, covered ${answer.covered?.length ?? 0}`}`,
  );
  console.log(`big request:       ${took.toFixed(0)} ms`);
  console.log(`slowest /health:   ${slowest.toFixed(0)} ms (${probes} probes, one every ${PROBE_EVERY_MS} ms, ${probeErrors} failed)`);
  console.log(`serve loop delay:  ${loopMax} ms at most (the longest the server held its event loop meanwhile)`);
  console.log(`load average:      ${loadavg()[0]?.toFixed(1)} (1 min) on ${availableParallelism()} cores`);
} finally {
  await runCleanup();
}
