import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { EventsWatcher } from "../../src/watch/events-watcher.js";
import { tempDir } from "../helpers/cli.js";
import { waitFor } from "../helpers/service.js";
import { eventsWatcherOf, writeTree } from "./helpers.js";

const MIN_AGE = 30_000;
const INTERVAL = 600_000;
const running: EventsWatcher[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.stop()));
});

async function setup(ignore: RegExp[] = []) {
  const dir = tempDir("scanarr-events-");
  const root = path.join(dir, "media");
  writeTree(root, ["TV/Show/Season 1/e01.mkv", "Movies/Old (1999)/old.mkv"]);
  const started = eventsWatcherOf(root, { minAgeMs: MIN_AGE, intervalMs: INTERVAL, ignore });
  running.push(started.watcher);
  await started.watcher.start();
  return { dir, root, ...started };
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

  it("does not watch a folder matched by IGNORE, nor anything under it", async () => {
    const { root, pendingFiles } = await setup([/\/Extras\//]);
    writeTree(root, ["Movies/Old (1999)/Extras/Behind/scene.mkv", "Movies/Old (1999)/old.srt"]);
    const subtitle = path.join(root, "Movies", "Old (1999)", "old.srt");
    await waitFor(() => pendingFiles().includes(subtitle), 5_000, "the subtitle");
    writeFileSync(path.join(root, "Movies", "Old (1999)", "Extras", "later.mkv"), "extra");
    // Written after the extra: once it is seen, an event for the extra would have been too (one inotify queue).
    const sentinel = path.join(root, "Movies", "Old (1999)", "old.en.srt");
    writeFileSync(sentinel, "1\n");
    await waitFor(() => pendingFiles().includes(sentinel), 5_000, "the file written after the extra");
    expect(pendingFiles().sort()).toEqual([sentinel, subtitle].sort());
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
    // A subtitle is a sidecar: its video's item is refreshed, no folder scan needed where the server holds it.
    const asked = { folder: path.dirname(file), source: "watch", event: "Watch", files: [file], refresh: true, scanFolder: false };
    expect(sink.requests).toEqual([asked]);
  });
});
