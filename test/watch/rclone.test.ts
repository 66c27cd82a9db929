import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { openDatabase, type Database } from "../../src/queue/storage/database.js";
import { detectChanges } from "../../src/watch/detect.js";
import { createPathFilter } from "../../src/watch/filter.js";
import { PollWatcher } from "../../src/watch/poll-watcher.js";
import { WatchStore } from "../../src/watch/store.js";
import { tempDir } from "../helpers/cli.js";
import { ageTree, expectBackWithNothingRecorded, emitTo, quietLogger, recordingSink, writeTree } from "./helpers.js";
import { canMount, mountRclone, type RcloneMount } from "./rclone-mount.js";

const MIN_AGE = 30_000;
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function setup(detect: "auto" | "mtime") {
  const dir = tempDir("scanarr-rclone-watch-");
  const source = path.join(dir, "remote");
  const mountPoint = path.join(dir, "mnt");
  mkdirSync(mountPoint);
  writeTree(source, ["TV/Show/Season 1/e01.mkv", "TV/Show/Season 1/e02.mkv", "Movies/Film (2001)/film.mkv"]);
  ageTree(source);
  let mount: RcloneMount = await mountRclone(source, mountPoint);
  cleanup.push(() => mount.stop());
  const db: Database = openDatabase(path.join(dir, "scanarr.db"));
  cleanup.push(() => {
    db.close();
  });
  const clock = new ManualClock();
  const sink = recordingSink();
  const logger = quietLogger();
  const watcher = new PollWatcher({
    root: { root: mountPoint, mode: "poll", minAgeMs: MIN_AGE, intervalMs: 1e12, detect, ignore: [] },
    store: new WatchStore(db),
    fs: (await import("../../src/watch/fs.js")).nodeWatchFs,
    filter: createPathFilter([], []),
    clock,
    logger,
    anchorsOk: () => true,
    emit: emitTo(sink, logger),
  });
  cleanup.push(() => watcher.stop());
  return {
    source,
    mountPoint,
    clock,
    sink,
    watcher,
    mount: () => mount,
    async remount() {
      mount = await mountRclone(source, mountPoint);
    },
  };
}

describe.skipIf(!canMount)("poll mode on a real rclone mount", () => {
  it("detects the FUSE mount and compares listings there", async () => {
    const { mountPoint } = await setup("auto");
    expect(await detectChanges(mountPoint)).toBe("listing");
  });

  it("sees a file added on the remote side in the first round after the mount's cache shows it", async () => {
    const { source, mountPoint, clock, sink, watcher, mount } = await setup("auto");
    await watcher.runRound();
    writeFileSync(path.join(source, "TV/Show/Season 1/e03.mkv"), "new episode");
    await watcher.runRound();
    expect(watcher.pending()).toEqual([]);
    await mount().refresh("TV/Show/Season 1");
    await watcher.runRound();
    const file = path.join(mountPoint, "TV/Show/Season 1/e03.mkv");
    expect(watcher.pending().map((p) => p.file)).toEqual([file]);
    clock.advance(MIN_AGE);
    await watcher.runRound();
    expect(sink.requests).toEqual([{ folder: path.dirname(file), source: "watch", event: "Watch", files: [file] }]);
  });

  it('misses that file with DETECT "mtime": rclone keeps the folder time it first listed', async () => {
    const { source, watcher, mount } = await setup("mtime");
    await watcher.runRound();
    writeFileSync(path.join(source, "TV/Show/Season 1/e03.mkv"), "new episode");
    await mount().refresh("TV/Show/Season 1");
    await mount().refresh("TV/Show");
    await watcher.runRound();
    expect(watcher.pending()).toEqual([]);
  });

  it("records no deletion when the mount drops, and nothing when it comes back unchanged", async () => {
    const { clock, sink, watcher, mount, remount } = await setup("auto");
    await watcher.runRound();
    await mount().stop();
    await watcher.runRound();
    expect(watcher.state.condition).toBe("root-empty");
    expect(watcher.pending()).toEqual([]);
    await remount();
    await expectBackWithNothingRecorded(watcher, clock, sink.requests, MIN_AGE);
  });
});
