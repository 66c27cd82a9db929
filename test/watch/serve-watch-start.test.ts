import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { spawnServe, writeServeConfig, type ChildServe } from "../helpers/child-serve.js";
import { tempDir } from "../helpers/cli.js";
import { ARR_SECTIONS } from "../helpers/service.js";

/** Folders in the tree: enough that the walk takes seconds on these machines, so /health is asked while it runs. */
const FOLDERS = 30_000;
/** What docs/running.md promises for a stop: requests in flight get at most 10 s. */
const GRACEFUL_STOP_MS = 10_000;

let plex: FakePlex;
let treeDir: string;
let root: string;
let serve: ChildServe | undefined;

// tmpfs when there is one: creating and removing 30,000 folders there takes a second, on this disk a minute.
function scratchDir(): string {
  const shm = "/dev/shm";
  try {
    accessSync(shm, constants.W_OK);
    return mkdtempSync(path.join(shm, "scanarr-watch-start-"));
  } catch {
    return mkdtempSync(path.join(tmpdir(), "scanarr-watch-start-"));
  }
}

beforeAll(async () => {
  plex = await startFakePlex({ sections: ARR_SECTIONS });
  treeDir = scratchDir();
  root = path.join(treeDir, "media");
  for (let i = 0; i < FOLDERS; i++) mkdirSync(path.join(root, `Show ${i % 300}`, `Season ${i}`), { recursive: true });
  writeFileSync(path.join(root, "Show 0", "Season 0", "e01.mkv"), "episode");
  symlinkSync("..", path.join(root, "Show 0", "loop"));
});
afterEach(() => {
  serve?.child.kill("SIGKILL");
  serve = undefined;
});
afterAll(async () => {
  await plex?.close();
  rmSync(treeDir, { recursive: true, force: true });
});

async function startServe(): Promise<ChildServe> {
  const dir = tempDir("scanarr-watch-start-install-");
  writeServeConfig(dir, plex, { WATCH: [{ PATHS: [root], MODE: "events", MIN_AGE: 60 }] });
  serve = await spawnServe(dir);
  return serve;
}

/** One GET /health: the watcher's state and how long the answer took. */
async function probe(port: number): Promise<{ state: string; ms: number }> {
  const sent = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(20_000) });
  const body = (await res.json()) as { watch: Array<{ state: string }> };
  return { state: body.watch[0]?.state ?? "", ms: performance.now() - sent };
}

describe("serve while an events watcher walks a big tree with a symlink loop", () => {
  it("answers /health within a second all along, finishes starting, and names the loop once", async () => {
    const { port, output } = await startServe();
    const probes: Array<{ state: string; ms: number }> = [];
    const started = performance.now();
    while (probes.at(-1)?.state !== "ok" && performance.now() - started < 60_000) {
      probes.push(await probe(port));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(probes.at(-1)?.state).toBe("ok");
    expect(probes.filter((p) => p.state === "starting").length).toBeGreaterThan(3);
    expect(Math.max(...probes.map((p) => p.ms))).toBeLessThan(1_000);
    const skipped = output()
      .split("\n")
      .filter((line) => line.includes("watched folder skipped"))
      .map((line) => (JSON.parse(line) as { path: string }).path);
    expect(skipped).toEqual([path.join(root, "Show 0", "loop")]);
  }, 90_000);

  it("stops on SIGTERM while the watcher is still starting, within the graceful-stop bound", async () => {
    const { port, child, exited } = await startServe();
    expect((await probe(port)).state).toBe("starting");
    const sent = performance.now();
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(performance.now() - sent).toBeLessThan(GRACEFUL_STOP_MS);
  }, 60_000);
});
