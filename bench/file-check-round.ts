// One file-check round over 10,000 waiting files (1,000 season folders × 10 files) on a local temp tree:
// wall time, CPU of scanarr's process and of the probe child, memory. Cases: every file visible; every
// file missing with the refresh off; every file missing with the refresh on against a real
// `rclone serve webdav --rc` of the tree (skipped without rclone).
// Run: node --expose-gc --import tsx bench/file-check-round.ts [folders] [filesPerFolder] [rounds]
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { createFileChecker, type FileChecker } from "../src/mount/file-check.js";
import { createPathProbe, type PathProbe } from "../src/mount/path-probe.js";
import { startProbeWorker } from "../src/mount/probe-worker.js";
import { createRcClient } from "../src/rclone/rc-client.js";
import { createVfsRefresher } from "../src/rclone/vfs-refresh.js";
import { cleanupRclone, startRcloneServe } from "../test/helpers/rclone-mount.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import { readCpuSeconds, readRssBytes } from "./lib/proc.js";

const FOLDERS = Number(process.argv[2] ?? 1_000);
const PER_FOLDER = Number(process.argv[3] ?? 10);
const ROUNDS = Number(process.argv[4] ?? 5);
const CONCURRENCY = Number(process.argv[5] ?? 16);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const settle = () => {
  global.gc?.();
  return process.memoryUsage();
};

const root = makeTempDir();
const files: string[] = [];
for (let f = 0; f < FOLDERS; f++) {
  const season = path.join(root, "TV", `Show ${Math.floor(f / 10)}`, `Season ${f % 10}`);
  mkdirSync(season, { recursive: true });
  for (let e = 0; e < PER_FOLDER; e++) {
    const file = path.join(season, `e${String(e).padStart(2, "0")}.mkv`);
    writeFileSync(file, "");
    files.push(`/data${file.slice(root.length)}`);
  }
}
const missing = files.map((f) => f.replace(/\.mkv$/, ".missing.mkv"));

let childPid: number | undefined;
const probe: PathProbe = createPathProbe({
  timeoutMs: 5_000,
  concurrency: CONCURRENCY,
  startWorker: (threads, events) => {
    const worker = startProbeWorker(threads, events);
    childPid = worker.pid;
    return worker;
  },
});
onCleanup(() => probe.close());
const existMappings = { [`${root}/`]: ["/data/"] };

async function measure(name: string, checker: FileChecker, input: string[]): Promise<void> {
  await checker.runRound(input.slice(0, 100)); // starts the child, warms the JIT
  const walls: number[] = [];
  const parentCpu: number[] = [];
  const childCpu: number[] = [];
  let last: Awaited<ReturnType<FileChecker["runRound"]>> | undefined;
  for (let r = 0; r < ROUNDS; r++) {
    const cpu0 = process.cpuUsage();
    const child0 = childPid ? readCpuSeconds(childPid) : 0;
    const t0 = performance.now();
    last = await checker.runRound(input);
    walls.push(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    parentCpu.push((cpu.user + cpu.system) / 1000);
    childCpu.push(childPid ? (readCpuSeconds(childPid) - child0) * 1000 : Number.NaN);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  const visible = last?.files.filter((f) => f.visible).length ?? 0;
  const refresh = last?.refresh ? `, refresh: ${last.refresh.folders} folders in ${last.refresh.calls} RC call(s)` : "";
  console.log(
    `| ${name.padEnd(38)} | ${String(input.length).padStart(6)} | ${String(visible).padStart(7)} | ${median(walls).toFixed(0).padStart(7)} | ${median(parentCpu).toFixed(0).padStart(10)} | ${median(childCpu).toFixed(0).padStart(9)} | ${mb(settle().rss).padStart(8)} |${refresh}`,
  );
}

const before = settle();
console.log(`${FOLDERS} folders × ${PER_FOLDER} files, median of ${ROUNDS} rounds; CPU in ms (child: 10 ms ticks)\n`);
console.log("| case                                   |  files | visible | wall ms | parent CPU | child CPU |   RSS    |");
console.log("| -------------------------------------- | -----: | ------: | ------: | ---------: | --------: | -------: |");
await measure("all visible", createFileChecker({ probe, existMappings, logger: silentLogger() }), files);
await measure("all missing, refresh off", createFileChecker({ probe, existMappings, logger: silentLogger() }), missing);
if (spawnSync("rclone", ["version"]).status === 0) {
  const rclone = await startRcloneServe(root);
  onCleanup(cleanupRclone);
  const client = createRcClient({ url: rclone.rcUrl, logger: silentLogger() });
  const refresher = createVfsRefresher({ client, clock: new ManualClock(), logger: silentLogger() });
  const remoteMappings = { "/": [`${root}/`] };
  await measure(
    "all missing, refresh on (rclone serve)",
    createFileChecker({ probe, existMappings, refresh: { refresher, remoteMappings }, logger: silentLogger() }),
    missing,
  );
} else {
  console.log("(rclone not installed: the refresh case is skipped)");
}
const after = settle();
console.log(
  `\nscanarr process: heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)}, RSS ${mb(before.rss)} → ${mb(after.rss)}` +
    `${global.gc ? "" : " (run with --expose-gc for steadier figures)"}; probe child RSS ${childPid ? mb(readRssBytes(childPid)) : "?"}`,
);
await runCleanup();
