import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileChecker } from "../../src/mount/file-check.js";
import { createPathProbe, type PathProbe, type ProbeResult } from "../../src/mount/path-probe.js";
import type { VfsRefresher, VfsRefreshOutcome } from "../../src/rclone/vfs-refresh.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { cleanupRclone, makeTempDir } from "../helpers/rclone-mount.js";

const probes: PathProbe[] = [];
afterEach(async () => {
  await Promise.all(probes.splice(0).map((p) => p.close()));
  await cleanupRclone();
});

function realProbe(): PathProbe {
  const probe = createPathProbe({ timeoutMs: 5_000 });
  probes.push(probe);
  return probe;
}

function library(): string {
  const dir = makeTempDir();
  mkdirSync(path.join(dir, "TV", "Show", "Season 1"), { recursive: true });
  writeFileSync(path.join(dir, "TV", "Show", "Season 1", "e01.mkv"), "x");
  return dir;
}

/** A refresher that records what it was asked and refreshes what the test says. */
function scriptedRefresher(answer: (dirs: readonly string[]) => Partial<VfsRefreshOutcome>): VfsRefresher & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    async refreshNearest(dirs) {
      asked.push([...dirs]);
      return { refreshed: new Map(), failed: new Map(), calls: 1, ...answer(dirs) };
    },
  };
}

describe("file-check round on local folders", () => {
  it("maps media-server paths to local ones and reports each file in input order", async () => {
    const dir = library();
    const checker = createFileChecker({ probe: realProbe(), existMappings: { [`${dir}/`]: ["/data/"] }, logger: recordingLogger().logger });
    const round = await checker.runRound(["/data/TV/Show/Season 1/e02.mkv", "/data/TV/Show/Season 1/e01.mkv", `${dir}/TV/Show`]);
    expect(round.files).toEqual([
      {
        file: "/data/TV/Show/Season 1/e02.mkv",
        localPath: `${dir}/TV/Show/Season 1/e02.mkv`,
        visible: false,
        state: "missing",
        refreshed: false,
      },
      {
        file: "/data/TV/Show/Season 1/e01.mkv",
        localPath: `${dir}/TV/Show/Season 1/e01.mkv`,
        visible: true,
        state: "file",
        refreshed: false,
      },
      { file: `${dir}/TV/Show`, localPath: `${dir}/TV/Show`, visible: true, state: "folder", refreshed: false },
    ]);
    expect(round.refresh).toBeUndefined();
  });

  it("answers the queue's gates with the set of visible files", async () => {
    const dir = library();
    const checker = createFileChecker({ probe: realProbe(), existMappings: { [`${dir}/`]: ["/data/"] }, logger: recordingLogger().logger });
    const visible = await checker.checkRound([
      "/data/TV/Show/Season 1/e01.mkv",
      "/data/TV/Show/Season 1/e02.mkv",
      "/data/TV/Show/Season 1/e01.mkv",
    ]);
    expect(visible).toEqual(new Set(["/data/TV/Show/Season 1/e01.mkv"]));
  });

  it("says why a file cannot be looked for instead of throwing: a Windows path with no mapping, a '..' segment", async () => {
    const checker = createFileChecker({ probe: realProbe(), existMappings: {}, logger: recordingLogger().logger });
    const round = await checker.runRound(["D:\\Media\\TV\\e01.mkv", "/data/../etc/passwd"]);
    expect(round.files.map((f) => [f.visible, f.localPath, f.error])).toEqual([
      [false, undefined, '"D:\\\\Media\\\\TV\\\\e01.mkv" is not a local path: add a SERVER_FILE_EXIST_PATH_MAPPINGS entry for it'],
      [false, undefined, "path \"/data/../etc/passwd\" contains a '..' segment"],
    ]);
  });

  it("asks the refresher once per folder, only for missing files under a remote mapping, then looks again", async () => {
    const dir = library();
    const refresher = scriptedRefresher((dirs) => {
      // The refresh "lands" e02 in the season folder, as rclone would show it.
      writeFileSync(path.join(dir, "TV", "Show", "Season 1", "e02.mkv"), "x");
      return { refreshed: new Map(dirs.map((d) => [d, d])) };
    });
    const checker = createFileChecker({
      probe: realProbe(),
      existMappings: {},
      refresh: { refresher, remoteMappings: { "/": [`${dir}/TV/`] } },
      logger: recordingLogger().logger,
    });
    const round = await checker.runRound([
      `${dir}/TV/Show/Season 1/e02.mkv`,
      `${dir}/TV/Show/Season 1/e03.mkv`,
      `${dir}/TV/Show/Season 1/e01.mkv`,
      `${dir}/Movies/Film/film.mkv`,
    ]);
    expect(refresher.asked).toEqual([["Show/Season 1"]]);
    expect(round.files.map((f) => [f.visible, f.refreshed])).toEqual([
      [true, true],
      [false, true],
      [true, false],
      [false, false],
    ]);
    expect(round.refresh).toEqual({ folders: 1, calls: 1 });
  });

  it("does not refresh a file whose check timed out (the mount is stalled, not stale) and passes on why rclone was unusable", async () => {
    const answers: Record<string, ProbeResult> = {
      "/mnt/a/TV/x.mkv": { state: "timeout", error: "no answer within 1 s" },
      "/mnt/a/Movies/y.mkv": { state: "missing" },
    };
    const refresher = scriptedRefresher(() => ({ unavailable: "rclone remote control at http://127.0.0.1:1 is unreachable" }));
    const checker = createFileChecker({
      probe: { check: async (p) => answers[p] ?? { state: "missing" } },
      existMappings: {},
      refresh: { refresher, remoteMappings: { "Media/": ["/mnt/a/"] } },
      logger: recordingLogger().logger,
    });
    const round = await checker.runRound(["/mnt/a/TV/x.mkv", "/mnt/a/Movies/y.mkv"]);
    expect(refresher.asked).toEqual([["Media/Movies"]]);
    expect(round.files.map((f) => [f.state, f.visible, f.refreshed, f.error])).toEqual([
      ["timeout", false, false, "no answer within 1 s"],
      ["missing", false, false, undefined],
    ]);
    expect(round.refresh).toEqual({ folders: 1, calls: 1, unavailable: "rclone remote control at http://127.0.0.1:1 is unreachable" });
  });
});
