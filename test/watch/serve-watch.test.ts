import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { startTestService, type TestService } from "../helpers/service.js";
import { writeTree } from "./helpers.js";

describe("serve with WATCH", () => {
  let t: TestService;
  let local: string;
  beforeAll(async () => {
    local = path.join(tempDir("scanarr-serve-watch-"), "tv");
    writeTree(local, ["Show/Season 1/e01.mkv"]);
    t = await startTestService({
      SERVER_PATH_MAPPINGS: { "/data/TV/": [`${local}/`] },
      WATCH: [{ PATHS: [local], MODE: "events", MIN_AGE: 0 }],
    });
    // The kernel watch is set up after serve listens; /health says when it is.
    for (let state = ""; state !== "ok"; ) {
      const health = (await (await fetch(`${t.origin}/health`)).json()) as { watch: Array<{ state: string }> };
      state = health.watch[0]?.state ?? "";
      if (state !== "ok") await new Promise((r) => setTimeout(r, 20));
    }
  });
  afterAll(async () => t?.stop());

  it("delivers a file written into a watched folder to Plex in the media server's path", async () => {
    writeFileSync(path.join(local, "Show", "Season 1", "e02.mkv"), "episode");
    await t.plex.waitForRefreshes(1, 10_000);
    expect(t.plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV/Show/Season 1" }]);
  });

  it("shows each watched folder in /health", async () => {
    const health = (await (await fetch(`${t.origin}/health`)).json()) as { watch: Array<{ root: string; mode: string; state: string }> };
    expect(health.watch).toHaveLength(1);
    expect(health.watch[0]).toMatchObject({ root: local, mode: "events", state: "ok" });
  });
});
