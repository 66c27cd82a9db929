import { afterEach, describe, expect, it } from "vitest";
import { createFakeBin } from "../scan/helpers/fake-bin.js";
import { buildPlexDb } from "../scan/helpers/plex-db.js";
import { postJson, startTestService, waitFor, type TestService } from "../helpers/service.js";

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe("serve with PLEX_SCAN_METHOD scanner", () => {
  it("runs Plex Media Scanner for a webhook's folder, with the section found in the Plex database", async () => {
    const bin = createFakeBin();
    const plexDb = buildPlexDb([{ id: 2, name: "TV Shows", type: 2, locations: ["/data/TV"] }]);
    t = await startTestService(
      {
        PLEX_SCAN_METHOD: "scanner",
        PLEX_SCANNER: bin.scanner,
        PLEX_DATABASE_PATH: plexDb,
        PLEX_LD_LIBRARY_PATH: "/usr/lib/plexmediaserver/lib",
        PLEX_SUPPORT_DIR: "/var/lib/plex support",
        USE_SUDO: false,
        USE_DOCKER: false,
      },
      { env: bin.env },
    );
    const answer = await postJson(t.base, {
      eventType: "Download",
      series: { id: 1, title: "Lost", path: "/tv/Lost" },
      episodeFile: { id: 1, relativePath: "Season 1/Lost - S01E01.mkv", path: "/tv/Lost/Season 1/Lost - S01E01.mkv" },
    });
    expect(answer.status).toBe(202);
    await waitFor(() => bin.records().some((r) => r.tool === "scanner"), 10_000, "a scanner run");
    const run = bin.records().find((r) => r.tool === "scanner");
    expect(run?.argv).toEqual(["--scan", "--refresh", "--section", "2", "--directory", "/data/TV/Lost/Season 1"]);
    expect(run?.env).toMatchObject({
      LD_LIBRARY_PATH: "/usr/lib/plexmediaserver/lib",
      PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR: "/var/lib/plex support",
    });
    expect(t.plex.refreshes).toHaveLength(0);
  });
});
