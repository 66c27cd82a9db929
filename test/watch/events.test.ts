import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import type { WatchRoot } from "../../src/watch/config.js";
import { EventsWatcher } from "../../src/watch/events-watcher.js";
import { createPathFilter } from "../../src/watch/filter.js";
import { nodeWatchFs } from "../../src/watch/fs.js";
import { tempDir } from "../helpers/cli.js";
import { waitFor } from "../helpers/service.js";
import { emitTo, quietLogger, recordingSink, writeTree } from "./helpers.js";

const MIN_AGE = 30_000;
const INTERVAL = 600_000;
const running: EventsWatcher[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.stop()));
});

async function setup() {
  const dir = tempDir("scanarr-events-");
  const root = path.join(dir, "media");
  writeTree(root, ["TV/Show/Season 1/e01.mkv", "Movies/Old (1999)/old.mkv"]);
  const clock = new ManualClock();
  const sink = recordingSink();
  const logger = quietLogger();
  const watchRoot: WatchRoot = { root, mode: "events", minAgeMs: MIN_AGE, intervalMs: INTERVAL, detect: "auto", ignore: [] };
  const watcher = new EventsWatcher({
    root: watchRoot,
    fs: nodeWatchFs,
    filter: createPathFilter([], []),
    clock,
    logger,
    anchorsOk: () => true,
    emit: emitTo(sink, logger),
  });
  running.push(watcher);
  await watcher.start();
  const pendingFiles = () => watcher.pending().map((p) => p.file);
  return { dir, root, clock, sink, watcher, pendingFiles };
}

describe("events mode", () => {
  it("turns a .part renamed to .mkv and a new movie into one scan per folder after MIN_AGE", async () => {
    const { root, clock, sink, watcher, pendingFiles } = await setup();
    const season = path.join(root, "TV", "Show", "Season 1");
    writeFileSync(path.join(season, "e02.mkv.part"), "downloading");
    renameSync(path.join(season, "e02.mkv.part"), path.join(season, "e02.mkv"));
    mkdirSync(path.join(root, "Movies", "New (2024)"));
    writeFileSync(path.join(root, "Movies", "New (2024)", "new.mkv"), "movie");
    const expected = [path.join(season, "e02.mkv"), path.join(root, "Movies", "New (2024)", "new.mkv")];
    await waitFor(() => expected.every((f) => pendingFiles().includes(f)), 5_000, "the watcher to see both files");
    expect(pendingFiles().some((f) => f.endsWith(".part"))).toBe(false);
    clock.advance(MIN_AGE - 1);
    await watcher.tick();
    expect(sink.requests).toEqual([]);
    clock.advance(1);
    await watcher.tick();
    expect(sink.requests).toEqual([
      { folder: path.join(root, "Movies", "New (2024)"), source: "watch", event: "Watch", files: [expected[1]] },
      { folder: season, source: "watch", event: "Watch", files: [expected[0]] },
    ]);
  });

  it("makes one scan of 1,000 files written into one season folder", async () => {
    const { root, clock, sink, watcher, pendingFiles } = await setup();
    const names = Array.from({ length: 1000 }, (_, i) => `TV/Show/Season 2/e${String(i).padStart(4, "0")}.mkv`);
    writeTree(root, names);
    await waitFor(() => pendingFiles().length === 1000, 20_000, "1,000 files noted");
    clock.advance(MIN_AGE);
    await watcher.tick();
    expect(sink.requests).toHaveLength(1);
    expect(sink.requests[0]?.files).toHaveLength(1000);
  });

  it("scans a removed season folder through its parent, as a deletion", async () => {
    const { root, clock, sink, watcher, pendingFiles } = await setup();
    const season = path.join(root, "TV", "Show", "Season 1");
    rmSync(season, { recursive: true });
    await waitFor(() => pendingFiles().includes(season), 5_000, "the folder removal");
    clock.advance(MIN_AGE);
    await watcher.tick();
    expect(sink.requests).toEqual([
      { folder: path.join(root, "TV", "Show"), source: "watch", event: "WatchDelete", files: [season], deletion: true },
    ]);
  });

  it("queues nothing when the watched folder vanishes, and watches again when it returns", async () => {
    const { dir, root, clock, sink, watcher, pendingFiles } = await setup();
    const away = path.join(dir, "away");
    renameSync(root, away);
    clock.advance(INTERVAL);
    await watcher.tick();
    expect(watcher.state.condition).toBe("root-missing");
    clock.advance(MIN_AGE);
    await watcher.tick();
    expect(sink.requests).toEqual([]);
    renameSync(away, root);
    clock.advance(INTERVAL);
    await watcher.tick();
    expect(watcher.state.condition).toBe("ok");
    const file = path.join(root, "Movies", "Old (1999)", "old.srt");
    writeFileSync(file, "subtitle");
    await waitFor(() => pendingFiles().includes(file), 5_000, "a file written after the return");
    clock.advance(MIN_AGE);
    await watcher.tick();
    expect(sink.requests).toEqual([{ folder: path.dirname(file), source: "watch", event: "Watch", files: [file] }]);
  });
});
