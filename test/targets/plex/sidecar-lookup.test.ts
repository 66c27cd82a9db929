import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import { createPlexLookup } from "../../../src/targets/plex/library-lookup.js";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { buildPlexItemsDb } from "../../scan/helpers/plex-db.js";

let plex: FakePlex;
let api: PlexApiClient;

beforeEach(async () => {
  plex = await startFakePlex({ sections: [{ key: "2", title: "TV", type: "show", locations: ["/data/TV"] }] });
  api = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
});

afterEach(async () => {
  await plex.close();
});

const TV = { id: "2", locations: ["/data/TV"] };
const SEASON = "/data/TV/Show/Season 1";

describe("finding a sidecar's item", () => {
  it("gives a subtitle the item of its episode through the folder view, one listing per folder", async () => {
    const e1 = plex.addItem(`${SEASON}/Show - S01E01.mkv`);
    const e2 = plex.addItem(`${SEASON}/Show - S01E02.mkv`);
    const lookup = createPlexLookup({ databasePath: "", api });
    const subtitles = [`${SEASON}/Show - S01E01.en.srt`, `${SEASON}/Show - S01E01.en.forced.srt`, `${SEASON}/Show - S01E02.de.srt`];
    const result = await lookup.locate([{ section: TV, files: [...subtitles, `${SEASON}/Show - S01E03.en.srt`] }]);
    const found = result.found[0];
    expect(found?.get(subtitles[0] as string)).toMatchObject({ file: e1.file, ratingKey: e1.ratingKey, named: subtitles[0] });
    expect(found?.get(subtitles[1] as string)?.ratingKey).toBe(e1.ratingKey);
    expect(found?.get(subtitles[2] as string)?.ratingKey).toBe(e2.ratingKey);
    expect(found?.has(`${SEASON}/Show - S01E03.en.srt`)).toBe(false);
    // root, the show, the season: the same walk a video file costs.
    expect(plex.requests.filter((r) => r.url.includes("/folder"))).toHaveLength(3);
  });

  it("finds it in the database with one range over the folder, without calling Plex", async () => {
    const databasePath = buildPlexItemsDb(
      [{ id: 2, name: "TV", type: 2, locations: ["/data/TV"] }],
      [
        { file: `${SEASON}/Show - S01E01.mkv`, section: 2, ratingKey: 10, parent: 3 },
        { file: `${SEASON}/Show - S01E02.mkv`, section: 2, ratingKey: 11, parent: 3, deleted: true },
        { file: `${SEASON} Extras/Show - S01E01.mkv`, section: 2, ratingKey: 12, parent: 4 },
        { file: `${SEASON}/Sub/Show - S01E01.mkv`, section: 2, ratingKey: 13, parent: 3 },
      ],
    );
    const lookup = createPlexLookup({ databasePath, api });
    const files = [`${SEASON}/Show - S01E01.en.srt`, `${SEASON}/Show - S01E02.en.srt`, `${SEASON}/Show - S01E01.mkv`];
    const result = await lookup.locate([{ section: TV, files }]);
    expect(result.source).toBe("database");
    expect(Object.fromEntries(result.found[0] ?? [])).toEqual({
      [`${SEASON}/Show - S01E01.en.srt`]: { file: `${SEASON}/Show - S01E01.mkv`, ratingKey: "10", parentRatingKey: "3", named: files[0] },
      [`${SEASON}/Show - S01E01.mkv`]: { file: `${SEASON}/Show - S01E01.mkv`, ratingKey: "10", parentRatingKey: "3" },
    });
    expect(plex.requests).toEqual([]);
  });
});
