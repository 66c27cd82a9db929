import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import {
  decideEmptyTrash,
  emptyTrashIfSafe,
  trashCauseOf,
  type TrashInput,
  type TrashSettings,
} from "../../src/delivery/after-scan/empty-trash.js";
import { flatPlexEntry } from "../../src/config/plex-entry.js";
import { createPlexAfterScan } from "../../src/targets/plex/after-scan.js";
import { PlexApiClient } from "../../src/targets/plex/api.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";

const on: TrashSettings = { enabled: true, maxFiles: 100, zeroDeleted: false };
const ready: TrashInput = { sectionRefreshing: false, alreadyEmptied: false, anchorsPresent: true, causes: ["deletion"], deletedCount: 3 };

describe("decideEmptyTrash", () => {
  it.each<[string, Partial<TrashInput>, Partial<TrashSettings>, string]>([
    ["off", {}, { enabled: false }, "PLEX_EMPTY_TRASH is off"],
    ["a maximum of 0", {}, { maxFiles: 0 }, "PLEX_EMPTY_TRASH_MAX_FILES is 0"],
    ["a batch of plain imports", { causes: [] }, {}, "no upgrade or deletion in this batch"],
    ["a second time in one batch", { alreadyEmptied: true }, {}, "already emptied for this batch"],
    ["a control file missing", { anchorsPresent: false }, {}, "an anchor or control file is missing"],
    [
      "more deleted items than the maximum",
      { deletedCount: 101 },
      {},
      "101 deleted items in the section, more than PLEX_EMPTY_TRASH_MAX_FILES (100)",
    ],
    ["nothing deleted after a deletion", { deletedCount: 0 }, {}, "the trash is empty"],
  ])("leaves the trash alone with %s, saying why", (_name, input, settings, reason) => {
    const decision = decideEmptyTrash({ ...ready, ...input }, { ...on, ...settings });
    expect(decision.action).toBe("skip");
    expect(decision.action === "skip" && decision.reason).toContain(reason);
  });

  it("waits while the section is refreshing, and asks for the count before deciding", () => {
    expect(decideEmptyTrash({ ...ready, sectionRefreshing: true }, on)).toEqual({
      action: "wait",
      reason: "the section is still refreshing",
    });
    expect(decideEmptyTrash({ ...ready, deletedCount: undefined }, on)).toEqual({ action: "count" });
  });

  it("empties up to the maximum, and with nothing deleted only for an upgrade or with ZERO_DELETED", () => {
    expect(decideEmptyTrash({ ...ready, deletedCount: 100 }, on)).toEqual({ action: "empty" });
    expect(decideEmptyTrash({ ...ready, causes: ["upgrade"], deletedCount: 0 }, on)).toEqual({ action: "empty" });
    expect(decideEmptyTrash({ ...ready, deletedCount: 0 }, { ...on, zeroDeleted: true })).toEqual({ action: "empty" });
  });
});

describe("trashCauseOf", () => {
  it.each([
    [{ event: "Download", files: 1, deletedFiles: 1 }, "upgrade"],
    [{ event: "Download", files: 1, deletedFiles: 0 }, undefined],
    [{ event: "EpisodeFileDelete", files: 0, deletedFiles: 1 }, "deletion"],
    [{ event: "SeriesDelete", files: 0, deletedFiles: 0 }, "deletion"],
    [{ event: "MovieFileDelete", files: 0, deletedFiles: 1 }, "deletion"],
    [{ event: "Rename", files: 2, deletedFiles: 2 }, "deletion"],
    [{ event: "Manual", files: 0, deletedFiles: 0 }, undefined],
  ])("%o is %s", (scan, cause) => {
    expect(trashCauseOf(scan)).toBe(cause);
  });
});

describe("emptyTrashIfSafe against Plex", () => {
  let plex: FakePlex;
  let api: PlexApiClient;
  let deps: Parameters<typeof emptyTrashIfSafe>[0];
  const TV = { id: "2", type: "show" };

  beforeEach(async () => {
    plex = await startFakePlex({ refreshDuration: "manual" });
    api = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
    const config = { ...defaultConfig("0123456789abcdef0123456789abcdef"), PLEX_LOCAL_URL: plex.url, PLEX_TOKEN: plex.token };
    deps = createPlexAfterScan({ ...flatPlexEntry(config), DATABASE_PATH: "" }, { env: {} });
  });
  afterEach(async () => {
    await plex.close();
  });

  /** An upgrade: the old file replaced, Plex scanning the season. */
  async function upgrade(): Promise<void> {
    plex.addItem("/data/TV-Shows/S/Season 1/E1.720p.mkv");
    plex.removeFile("/data/TV-Shows/S/Season 1/E1.720p.mkv");
    plex.addFile("/data/TV-Shows/S/Season 1/E1.1080p.mkv");
    await api.refresh("2", "/data/TV-Shows/S/Season 1");
  }

  it("empties the trash after an upgrade once refreshing ended, not before", async () => {
    await upgrade();
    const input = { alreadyEmptied: false, anchorsPresent: true, causes: ["upgrade" as const] };
    const refreshing = (await api.listSections()).find((s) => s.id === "2")?.refreshing ?? false;
    expect(await emptyTrashIfSafe(deps, TV, { ...input, sectionRefreshing: refreshing }, on)).toEqual({
      action: "wait",
      reason: "the section is still refreshing",
    });
    expect(plex.emptiedTrash).toEqual([]);
    plex.finishRefresh("2");
    expect(await emptyTrashIfSafe(deps, TV, { ...input, sectionRefreshing: false }, on)).toEqual({ action: "emptied", deletedCount: 1 });
    expect(plex.emptiedTrash).toEqual(["2"]);
    expect(plex.trashCount("2")).toBe(0);
  });

  it("leaves a trash holding more than PLEX_EMPTY_TRASH_MAX_FILES alone and says how many", async () => {
    for (let i = 0; i < 6; i++) {
      plex.addItem(`/data/TV-Shows/S/Season 2/E${i}.mkv`);
      plex.removeFile(`/data/TV-Shows/S/Season 2/E${i}.mkv`);
    }
    await api.refresh("2", "/data/TV-Shows/S");
    plex.finishRefresh("2");
    const result = await emptyTrashIfSafe(
      deps,
      TV,
      { sectionRefreshing: false, alreadyEmptied: false, anchorsPresent: true, causes: ["deletion"] },
      { ...on, maxFiles: 5 },
    );
    expect(result).toMatchObject({ action: "skipped", deletedCount: 6 });
    expect(result.action === "skipped" && result.reason).toContain(
      "6 deleted items in the section, more than PLEX_EMPTY_TRASH_MAX_FILES (5)",
    );
    expect(plex.emptiedTrash).toEqual([]);
  });

  it("does not even count the trash while a control file is missing", async () => {
    await upgrade();
    plex.finishRefresh("2");
    const before = plex.requests.length;
    const result = await emptyTrashIfSafe(
      deps,
      TV,
      { sectionRefreshing: false, alreadyEmptied: false, anchorsPresent: false, causes: ["upgrade"] },
      on,
    );
    expect(result.action).toBe("skipped");
    expect(plex.requests.length).toBe(before);
    expect(plex.emptiedTrash).toEqual([]);
  });
});
