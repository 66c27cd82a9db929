import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { EventsWatcher } from "../../src/watch/events-watcher.js";
import { tempDir } from "../helpers/cli.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { waitFor } from "../helpers/service.js";
import { eventsWatcherOf, writeTree } from "./helpers.js";

const MIN_AGE = 30_000;
const INTERVAL = 600_000;
const running: EventsWatcher[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.stop()));
});

/** A media tree under a temp dir, with `links` (path in the tree → link text) made before the watcher starts. */
async function setup(links: Record<string, string>) {
  const dir = tempDir("scanarr-events-links-");
  const root = path.join(dir, "media");
  writeTree(root, ["TV/Show/Season 1/e01.mkv", "Movies/Old (1999)/old.mkv"]);
  writeTree(path.join(dir, "elsewhere"), ["Film (2001)/film.mkv"]);
  for (const [at, target] of Object.entries(links)) symlinkSync(target, path.join(root, at));
  const log = recordingLogger();
  const started = eventsWatcherOf(root, { minAgeMs: MIN_AGE, intervalMs: INTERVAL, logger: log.logger });
  running.push(started.watcher);
  const skipped = () => log.lines.filter((l) => l.msg.startsWith("watched folder skipped")).map((l) => l.fields.path);
  return { dir, root, ...started, skipped };
}

describe("events mode with symlinked folders", () => {
  it("skips a symlink loop with one warning naming it, finishes starting and still sees a new file elsewhere", async () => {
    const { dir, root, watcher, pendingFiles, skipped, clock } = await setup({ "TV/Show/loop": "..", "Movies/up": "../.." });
    await watcher.start();
    expect(watcher.state.condition).toBe("ok");
    expect(skipped().sort()).toEqual([path.join(root, "Movies", "up"), path.join(root, "TV", "Show", "loop")]);
    const file = path.join(root, "Movies", "New (2024)", "new.mkv");
    writeTree(root, ["Movies/New (2024)/new.mkv"]);
    await waitFor(() => pendingFiles().includes(file), 5_000, "the new file");
    expect(pendingFiles().every((f) => !f.includes(`${path.sep}loop${path.sep}`))).toBe(true);

    // The tree walked again after the folder came back: the loops are not logged twice.
    renameSync(root, path.join(dir, "away"));
    clock.advance(INTERVAL);
    await watcher.tick();
    renameSync(path.join(dir, "away"), root);
    clock.advance(INTERVAL);
    await watcher.tick();
    expect(watcher.state.condition).toBe("ok");
    expect(skipped()).toHaveLength(2);
  });

  it("skips a link that leads back to itself", async () => {
    const { root, watcher, skipped } = await setup({ "TV/self": "self" });
    await watcher.start();
    expect(watcher.state.condition).toBe("ok");
    expect(skipped()).toEqual([path.join(root, "TV", "self")]);
  });

  it("follows a symlinked folder outside the tree once, reporting its files under the link's path", async () => {
    const { dir, root, watcher, pendingFiles, skipped } = await setup({
      "Movies/Linked": "../../elsewhere",
      "TV/Again": "../../elsewhere",
    });
    await watcher.start();
    const seenThrough = [path.join(root, "Movies", "Linked"), path.join(root, "TV", "Again")].filter((p) => !skipped().includes(p));
    expect(seenThrough).toHaveLength(1);
    writeFileSync(path.join(dir, "elsewhere", "Film (2001)", "film.srt"), "subtitle");
    const expected = path.join(seenThrough[0] ?? "", "Film (2001)", "film.srt");
    await waitFor(() => pendingFiles().includes(expected), 5_000, "the file written outside, under the link's path");
    expect(pendingFiles()).toEqual([expected]);
  });

  it("does not follow a link to a folder inside the tree, which is watched under its own path", async () => {
    const { root, watcher, pendingFiles, skipped } = await setup({ "TV/Alias": "Show" });
    await watcher.start();
    expect(skipped()).toEqual([path.join(root, "TV", "Alias")]);
    const file = path.join(root, "TV", "Show", "Season 1", "e02.mkv");
    writeFileSync(file, "episode");
    await waitFor(() => pendingFiles().includes(file), 5_000, "the new episode");
    expect(pendingFiles()).toEqual([file]);
  });
});

describe("events mode, folders moved inside the tree", () => {
  it("reports a renamed show as removed under its old name and present under its new one, and keeps watching it", async () => {
    const { root, watcher, pendingFiles, skipped } = await setup({});
    await watcher.start();
    const [before, after] = [path.join(root, "TV", "Show"), path.join(root, "TV", "Show (2020)")];
    renameSync(before, after);
    const moved = path.join(after, "Season 1", "e01.mkv");
    await waitFor(() => pendingFiles().includes(before) && pendingFiles().includes(moved), 5_000, "the rename");
    const later = path.join(after, "Season 2", "e01.mkv");
    mkdirSync(path.dirname(later));
    writeFileSync(later, "episode");
    await waitFor(() => pendingFiles().includes(later), 5_000, "a file in the renamed show");
    expect(skipped()).toEqual([]);
  });

  it("keeps watching a season folder removed and made again under the same name (its inode number may be reused)", async () => {
    const { root, watcher, pendingFiles } = await setup({});
    await watcher.start();
    const season = path.join(root, "TV", "Show", "Season 1");
    for (let round = 0; round < 5; round++) {
      rmSync(season, { recursive: true });
      mkdirSync(season);
      const file = path.join(season, `round${round}.mkv`);
      writeFileSync(file, "episode");
      await waitFor(() => pendingFiles().includes(file), 5_000, `the file of round ${round}`);
      // A file written later, once the event of the folder's return has surely been handled.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const later = path.join(season, `later${round}.mkv`);
      writeFileSync(later, "episode");
      await waitFor(() => pendingFiles().includes(later), 5_000, `the later file of round ${round}`);
    }
  });
});
