import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../../src/config/defaults.js";
import { flatPlexEntry } from "../../../src/config/plex-entry.js";
import type { Config } from "../../../src/config/types.js";
import { resolveScannerSettings } from "../../../src/targets/plex-scanner/scanner-command.js";
import { TargetUnavailableError } from "../../../src/domain.js";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import { createConfirmer, type ConfirmWait } from "../../../src/delivery/after-scan/confirm.js";
import { emptyTrashIfSafe } from "../../../src/delivery/after-scan/empty-trash.js";
import { analyzeItems } from "../../../src/delivery/after-scan/item-calls.js";
import { createPlexAfterScan } from "../../../src/targets/plex/after-scan.js";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { createFakeBin } from "../../scan/helpers/fake-bin.js";
import { buildPlexItemsDb } from "../../scan/helpers/plex-db.js";

const SEASON = "/data/TV-Shows/Show/Season 1";
const T0 = 1_700_000_000_000;
let plex: FakePlex;

beforeEach(async () => {
  plex = await startFakePlex({ refreshDuration: 1 });
});
afterEach(async () => {
  await plex.close();
});

function configFor(overrides: Partial<Config>): Config {
  return {
    ...defaultConfig("0123456789abcdef0123456789abcdef"),
    PLEX_LOCAL_URL: plex.url,
    PLEX_TOKEN: plex.token,
    PLEX_DATABASE_PATH: "",
    ...overrides,
  };
}

const waitFor = (files: string[], deletedFiles: string[] = []): ConfirmWait => ({
  id: "scan-1",
  sectionId: "2",
  files,
  deletedFiles,
  scannedAt: T0,
  rescanned: false,
});

/** The confirmation's poller over the capability, as the after-scan work builds it. */
const confirmerOf = (afterScan: ReturnType<typeof createPlexAfterScan>) =>
  createConfirmer({ target: afterScan, settings: afterScan.settings.confirm });

describe("createPlexAfterScan with the api method", () => {
  it("confirms a Sonarr import and analyzes its episode once, then empties the trash of an upgrade", async () => {
    const afterScan = createPlexAfterScan(flatPlexEntry(configFor({ PLEX_ANALYZE_TYPE: "basic", PLEX_EMPTY_TRASH: true })), { env: {} });
    expect(afterScan.settings.waitsForSection).toBe(true);
    const api = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
    plex.addItem(`${SEASON}/E01.720p.mkv`);
    plex.removeFile(`${SEASON}/E01.720p.mkv`);
    plex.addFile(`${SEASON}/E01.1080p.mkv`);
    await api.refresh("2", SEASON);
    const wait = waitFor([`${SEASON}/E01.1080p.mkv`], [`${SEASON}/E01.720p.mkv`]);
    const first = await confirmerOf(afterScan).poll([wait], T0 + 10_000);
    expect(first.outcomes[0]?.step).toMatchObject({ kind: "wait", why: "refreshing" });
    const second = await confirmerOf(afterScan).poll([{ ...wait, sawRefreshing: true }], T0 + 20_000);
    const step = second.outcomes[0]?.step;
    if (step?.kind !== "confirmed") throw new Error(`expected confirmed, got ${step?.kind}`);
    const report = await analyzeItems(afterScan, [...step.items, ...step.items]);
    expect(report.analyzed).toEqual([plex.itemOf(`${SEASON}/E01.1080p.mkv`)?.ratingKey]);
    expect(plex.analyzed).toHaveLength(1);
    const refreshing = second.sections.find((s) => s.id === "2")?.refreshing ?? true;
    const trash = await emptyTrashIfSafe(
      afterScan,
      { id: "2", type: "show" },
      { sectionRefreshing: refreshing, alreadyEmptied: false, anchorsPresent: true, causes: ["upgrade"] },
      afterScan.settings.trash,
    );
    expect(trash).toEqual({ action: "emptied", deletedCount: 1 });
    expect(plex.emptiedTrash).toEqual(["2"]);
  });

  it("neither analyzes nor waits for sections when confirmation, analyze and empty trash are all off", async () => {
    const afterScan = createPlexAfterScan(flatPlexEntry(configFor({ PLEX_CONFIRM_SCANS: false })), { env: {} });
    expect(afterScan.settings.waitsForSection).toBe(false);
    expect(await analyzeItems(afterScan, [{ file: "/x", ratingKey: "1" }])).toEqual({ analyzed: [], failed: [] });
    expect(plex.requests).toEqual([]);
  });
});

describe("createPlexAfterScan with the scanner method", () => {
  it("reads the sections from the database as finished and analyzes through the scanner", async () => {
    const file = `/data/TV/Show/Season 1/E01.mkv`;
    const databasePath = buildPlexItemsDb(
      [{ id: 2, name: "TV", type: 2, locations: ["/data/TV"] }],
      [{ file, section: 2, ratingKey: 70, parent: 69 }],
    );
    const bin = createFakeBin();
    const config = configFor({
      PLEX_SCAN_METHOD: "scanner",
      PLEX_DATABASE_PATH: databasePath,
      PLEX_SCANNER: bin.scanner,
      PLEX_ANALYZE_TYPE: "deep",
      PLEX_ANALYZE_DIRECTORY: true,
    });
    const afterScan = createPlexAfterScan(flatPlexEntry(config), { env: bin.env, scanner: resolveScannerSettings(config, {}, true) });
    const round = await confirmerOf(afterScan).poll([waitFor([file])], T0 + 10_000);
    expect(round.outcomes[0]?.step).toEqual({ kind: "confirmed", items: [{ file, ratingKey: "70", parentRatingKey: "69" }] });
    expect(plex.requests).toEqual([]);
    expect(await analyzeItems(afterScan, [{ file, ratingKey: "70", parentRatingKey: "69" }])).toEqual({
      analyzed: ["69"],
      failed: [],
    });
    expect(bin.records().find((r) => r.tool === "scanner")?.argv).toEqual(["--analyze-deeply", "--item", "69"]);
  });

  it("reports an unreadable database as a Plex outage to retry, not a crash", async () => {
    const afterScan = createPlexAfterScan(
      flatPlexEntry(configFor({ PLEX_SCAN_METHOD: "scanner", PLEX_DATABASE_PATH: "/nonexistent/plex.db" })),
      {
        env: {},
      },
    );
    await expect(confirmerOf(afterScan).poll([waitFor([])], T0 + 10_000)).rejects.toBeInstanceOf(TargetUnavailableError);
  });
});
