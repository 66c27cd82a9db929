import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import type { Logger } from "../../src/lib/logger.js";
import { openDatabase, type Database } from "../../src/queue/storage/database.js";
import type { WatchRoot } from "../../src/watch/config.js";
import { createPathFilter } from "../../src/watch/filter.js";
import type { WatchFs } from "../../src/watch/fs.js";
import { PollWatcher } from "../../src/watch/poll-watcher.js";
import { WatchStore } from "../../src/watch/store.js";
import { tempDir } from "../helpers/cli.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { ageTree, countDirs, countingFs, expectBackWithNothingRecorded, emitTo, quietLogger, recordingSink, writeTree } from "./helpers.js";

const MIN_AGE = 30_000;
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function setup(options: { detect?: "mtime" | "listing"; fs?: WatchFs; dbFile?: string; files?: string[]; logger?: Logger } = {}) {
  const dir = tempDir("scanarr-poll-");
  const root = path.join(dir, "media");
  writeTree(
    root,
    options.files ?? [
      "Show A/Season 1/a1.mkv",
      "Show A/Season 1/a2.mkv",
      "Show A/Season 2/a3.mkv",
      "Show B/Season 1/b1.mkv",
      "Movie (2010)/movie.mkv",
    ],
  );
  ageTree(root);
  return { dir, root, ...start(root, options) };
}

function start(root: string, options: { detect?: "mtime" | "listing"; fs?: WatchFs; dbFile?: string; logger?: Logger } = {}) {
  const db = openDatabase(options.dbFile ?? path.join(path.dirname(root), "scanarr.db"));
  open.push(db);
  const clock = new ManualClock();
  const sink = recordingSink();
  const fs = countingFs(options.fs);
  const anchors = { ok: true };
  const logger = options.logger ?? quietLogger();
  const watchRoot: WatchRoot = {
    root,
    mode: "poll",
    minAgeMs: MIN_AGE,
    intervalMs: 1e12,
    detect: options.detect ?? "mtime",
    ignore: [/\/Extras\//],
  };
  const watcher = new PollWatcher({
    root: watchRoot,
    store: new WatchStore(db),
    fs,
    filter: createPathFilter(watchRoot.ignore, ["/.grab/"]),
    clock,
    logger,
    anchorsOk: () => anchors.ok,
    emit: emitTo(sink, logger, ["/.grab/"]),
  });
  return { db, clock, sink, fs, anchors, watcher };
}

describe("poll mode", () => {
  it("records the tree on the first round and queues nothing", async () => {
    const { watcher, sink } = setup();
    await watcher.runRound();
    expect(sink.requests).toEqual([]);
    expect(watcher.pending()).toEqual([]);
  });

  it("costs one stat per folder and no listing on an unchanged round", async () => {
    const { root, watcher, fs, sink } = setup();
    await watcher.runRound();
    fs.reset();
    await watcher.runRound();
    expect(fs.stats).toBe(countDirs(root));
    expect(fs.readdirs).toBe(0);
    expect(sink.requests).toEqual([]);
  });

  it("queues a new episode's folder with the file once it has been stable for MIN_AGE", async () => {
    const { root, watcher, clock, sink } = setup();
    await watcher.runRound();
    const file = path.join(root, "Show A", "Season 2", "a4.mkv");
    writeFileSync(file, "new episode");
    await watcher.runRound();
    expect(watcher.pending().map((p) => p.file)).toEqual([file]);
    clock.advance(MIN_AGE - 1);
    await watcher.runRound();
    expect(sink.requests).toEqual([]);
    clock.advance(1);
    await watcher.runRound();
    expect(sink.requests).toEqual([{ folder: path.join(root, "Show A", "Season 2"), source: "watch", event: "Watch", files: [file] }]);
    await watcher.runRound();
    expect(sink.requests).toHaveLength(1);
  });

  it("leaves a file named with a control character out of its folder's scan, and skips a folder named with one, with warnings", async () => {
    const log = recordingLogger();
    const { root, watcher, clock, sink } = setup({ logger: log.logger });
    await watcher.runRound();
    const season = path.join(root, "Show A", "Season 1");
    writeFileSync(path.join(season, "a3\n[INFO] fake.mkv"), "new episode");
    writeFileSync(path.join(season, "a4.mkv"), "new episode");
    mkdirSync(path.join(root, "Show\tC"));
    writeFileSync(path.join(root, "Show\tC", "c1.mkv"), "new episode");
    await watcher.runRound();
    clock.advance(MIN_AGE);
    await watcher.runRound();
    expect(sink.requests).toEqual([{ folder: season, source: "watch", event: "Watch", files: [path.join(season, "a4.mkv")] }]);
    const warnings = log.lines.filter((l) => l.level === "warn");
    expect(warnings.map((l) => [l.msg, l.fields.reason]).sort()).toEqual([
      [
        "watched files left out of the scan request: their paths cannot be mapped",
        expect.stringMatching(/contains a line feed \(U\+000A\) at character \d+$/),
      ],
      ["watched folder not queued: its path cannot be mapped", expect.stringMatching(/contains a tab \(U\+0009\) at character \d+$/)],
    ]);
  });

  it("waits while a file is still growing", async () => {
    const { root, watcher, clock, sink } = setup();
    await watcher.runRound();
    const file = path.join(root, "Movie (2010)", "movie.srt");
    writeFileSync(file, "1\n");
    await watcher.runRound();
    clock.advance(MIN_AGE);
    appendFileSync(file, "00:00:01,000 --> 00:00:02,000\nstill being written\n");
    await watcher.runRound();
    expect(sink.requests).toEqual([]);
    clock.advance(MIN_AGE);
    await watcher.runRound();
    expect(sink.requests.map((r) => r.files)).toEqual([[file]]);
  });

  it("ignores a partial download and sees the finished file when it is renamed", async () => {
    const { root, watcher, clock, sink } = setup();
    await watcher.runRound();
    const part = path.join(root, "Show B", "Season 1", "b2.mkv.part");
    writeFileSync(part, "half");
    writeFileSync(path.join(root, "Show B", "Season 1", "b3.mkv.!qB"), "half");
    await watcher.runRound();
    expect(watcher.pending()).toEqual([]);
    renameSync(part, path.join(root, "Show B", "Season 1", "b2.mkv"));
    await watcher.runRound();
    clock.advance(MIN_AGE);
    await watcher.runRound();
    expect(sink.requests).toEqual([
      {
        folder: path.join(root, "Show B", "Season 1"),
        source: "watch",
        event: "Watch",
        files: [path.join(root, "Show B", "Season 1", "b2.mkv")],
      },
    ]);
  });

  it("makes one scan of a burst of 1,000 files in one season folder", async () => {
    const { root, watcher, clock, sink } = setup();
    await watcher.runRound();
    writeTree(
      root,
      Array.from({ length: 1000 }, (_, i) => `Show A/Season 3/e${String(i).padStart(4, "0")}.mkv`),
    );
    await watcher.runRound();
    clock.advance(MIN_AGE);
    await watcher.runRound();
    expect(sink.requests).toHaveLength(1);
    expect(sink.requests[0]?.folder).toBe(path.join(root, "Show A", "Season 3"));
    expect(sink.requests[0]?.files).toHaveLength(1000);
  });

  it("queues removals as deletions: a file through its folder, a removed folder through its parent", async () => {
    const { root, watcher, clock, sink } = setup();
    await watcher.runRound();
    rmSync(path.join(root, "Show A", "Season 1", "a2.mkv"));
    rmSync(path.join(root, "Show A", "Season 2"), { recursive: true });
    await watcher.runRound();
    clock.advance(MIN_AGE);
    await watcher.runRound();
    expect(sink.requests).toEqual([
      {
        folder: path.join(root, "Show A"),
        source: "watch",
        event: "WatchDelete",
        files: [path.join(root, "Show A", "Season 2")],
        deletion: true,
      },
      {
        folder: path.join(root, "Show A", "Season 1"),
        source: "watch",
        event: "WatchDelete",
        files: [path.join(root, "Show A", "Season 1", "a2.mkv")],
        deletion: true,
      },
    ]);
  });

  it("skips folders matching IGNORE or SERVER_IGNORE_LIST", async () => {
    const { root, watcher, clock, sink } = setup();
    await watcher.runRound();
    writeTree(root, ["Movie (2010)/Extras/trailer.mkv", "Movie (2010)/.grab/x.mkv"]);
    await watcher.runRound();
    clock.advance(MIN_AGE);
    await watcher.runRound();
    expect(sink.requests).toEqual([]);
  });

  it("keeps its snapshot and pending changes across a restart", async () => {
    const first = setup();
    await first.watcher.runRound();
    const file = path.join(first.root, "Show B", "Season 1", "b9.mkv");
    writeFileSync(file, "x");
    await first.watcher.runRound();
    await first.watcher.stop();
    first.db.close();
    open.splice(open.indexOf(first.db), 1);
    const second = start(first.root);
    expect(second.watcher.pending().map((p) => p.file)).toEqual([file]);
    second.clock.advance(MIN_AGE);
    second.fs.reset();
    await second.watcher.runRound();
    expect(second.sink.requests.map((r) => r.files)).toEqual([[file]]);
    expect(second.fs.readdirs).toBeLessThanOrEqual(1);
  });

  it("records nothing while the root is gone or empty, and sees an unchanged tree when it comes back", async () => {
    const { dir, root, watcher, clock, sink } = setup();
    await watcher.runRound();
    const away = path.join(dir, "away");
    renameSync(root, away);
    await watcher.runRound();
    expect(watcher.state.condition).toBe("root-missing");
    writeTree(dir, ["media/.keep-out"]);
    rmSync(path.join(root, ".keep-out"));
    await watcher.runRound();
    expect(watcher.state.condition).toBe("root-empty");
    rmSync(root, { recursive: true });
    renameSync(away, root);
    await expectBackWithNothingRecorded(watcher, clock, sink.requests, MIN_AGE);
  });

  it("records nothing while an anchor is missing", async () => {
    const { root, watcher, clock, sink, anchors } = setup();
    await watcher.runRound();
    anchors.ok = false;
    rmSync(path.join(root, "Show B"), { recursive: true });
    await watcher.runRound();
    clock.advance(MIN_AGE);
    await watcher.runRound();
    expect(watcher.state.condition).toBe("anchors-missing");
    expect(sink.requests).toEqual([]);
    expect(watcher.pending()).toEqual([]);
  });

  it("believes no deletion seen while the mount drops in the middle of a round", async () => {
    const files = ["Show A/Season 1/a1.mkv", "Show B/Season 1/b1.mkv"];
    const dir = tempDir("scanarr-poll-");
    const root = path.join(dir, "media");
    writeTree(root, files);
    ageTree(root);
    const { nodeWatchFs } = await import("../../src/watch/fs.js");
    const gone = () => Promise.reject(Object.assign(new Error("gone"), { code: "ENOENT" }));
    // "armed": the next listing of the root still works, then the mount is gone: sub-folders vanish, the root lists empty.
    const mount = { phase: "up" as "up" | "armed" | "dropped" };
    const fs: WatchFs = {
      stat: (p) => (mount.phase === "dropped" && p !== root ? gone() : nodeWatchFs.stat(p)),
      readdir: async (p) => {
        if (p !== root) return mount.phase === "dropped" ? gone() : nodeWatchFs.readdir(p);
        if (mount.phase === "dropped") return [];
        const entries = await nodeWatchFs.readdir(p);
        if (mount.phase === "armed") mount.phase = "dropped";
        return entries;
      },
    };
    const { watcher, clock, sink, db } = start(root, { fs });
    await watcher.runRound();
    const before = db.prepare("SELECT count(*) AS n FROM watch_dirs").get() as { n: number };
    const { utimesSync } = await import("node:fs");
    utimesSync(root, new Date(), new Date(Date.now() - 10_000));
    mount.phase = "armed";
    await watcher.runRound();
    expect(watcher.state.condition).toBe("root-empty");
    expect(db.prepare("SELECT count(*) AS n FROM watch_dirs").get()).toEqual(before);
    mount.phase = "up";
    await watcher.runRound();
    expect(watcher.state.condition).toBe("ok");
    clock.advance(MIN_AGE);
    await watcher.runRound();
    expect(sink.requests).toEqual([]);
  });

  describe('with DETECT "listing" (rclone and other FUSE mounts)', () => {
    it("lists each folder once and stats nothing but the root on an unchanged round", async () => {
      const { root, watcher, fs } = setup({ detect: "listing" });
      await watcher.runRound();
      fs.reset();
      await watcher.runRound();
      expect(fs.readdirs).toBe(countDirs(root));
      expect(fs.stats).toBe(1);
    });

    it("finds a new file without the folder's time changing", async () => {
      const { root, watcher, clock, sink } = setup({ detect: "listing" });
      await watcher.runRound();
      const file = path.join(root, "Show A", "Season 1", "a9.mkv");
      writeFileSync(file, "x");
      ageTree(root);
      await watcher.runRound();
      clock.advance(MIN_AGE);
      await watcher.runRound();
      expect(sink.requests.map((r) => r.files)).toEqual([[file]]);
    });
  });
});
