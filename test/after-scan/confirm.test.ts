import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { flatPlexEntry } from "../../src/config/plex-entry.js";
import { createConfirmer, type ConfirmSettings, type ConfirmWait, type Confirmer } from "../../src/delivery/after-scan/confirm.js";
import { createPlexAfterScan } from "../../src/targets/plex/after-scan.js";
import { PlexApiClient } from "../../src/targets/plex/api.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { copyFixtureDb, hasFixtureDb } from "../scan/helpers/plex-db.js";

const settings: ConfirmSettings = { pollMs: 10_000, maxWaitMs: 600_000, rescanDelayMs: 60_000, confirmFiles: true, server: "Plex" };
const T0 = 1_700_000_000_000;
const SEASON = "/data/TV-Shows/Show/Season 1";

let plex: FakePlex;
let api: PlexApiClient;
let confirmer: Confirmer;

/** The Plex target's after-scan capability over the fake, its files found in `databasePath` or through the API. */
function plexAfterScan(databasePath = "") {
  const config = { ...defaultConfig("0123456789abcdef0123456789abcdef"), PLEX_LOCAL_URL: plex.url, PLEX_TOKEN: plex.token };
  return createPlexAfterScan({ ...flatPlexEntry(config), DATABASE_PATH: databasePath }, { env: {} });
}

beforeEach(async () => {
  plex = await startFakePlex({ refreshDuration: 2 });
  api = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
  confirmer = createConfirmer({ target: plexAfterScan(), settings });
});

afterEach(async () => {
  await plex.close();
});

const wait = (id: string, files: string[], extra: Partial<ConfirmWait> = {}): ConfirmWait => ({
  id,
  sectionId: "2",
  files,
  deletedFiles: [],
  scannedAt: T0,
  rescanned: false,
  ...extra,
});
const sectionPolls = (): number => plex.requests.filter((r) => r.url === "/library/sections").length;

describe("createConfirmer", () => {
  it("calls nothing when no scan waits", async () => {
    expect(await confirmer.poll([], T0)).toEqual({ outcomes: [], sections: [] });
    expect(plex.requests).toEqual([]);
  });

  it("answers every waiting scan of every section with one section poll, and looks at no file while sections refresh", async () => {
    await api.refresh("2", SEASON);
    await api.refresh("1", "/data/Movies/X (2000)");
    const waits = [
      ...Array.from({ length: 40 }, (_, i) => wait(`tv-${i}`, [`${SEASON}/E${i}.mkv`])),
      ...Array.from({ length: 10 }, (_, i) => wait(`movie-${i}`, [`/data/Movies/X (2000)/X${i}.mkv`], { sectionId: "1" })),
    ];
    const before = plex.requests.length;
    const round = await confirmer.poll(waits, T0 + 10_000);
    expect(sectionPolls()).toBe(1);
    expect(plex.requests.length - before).toBe(1);
    expect(new Set(round.outcomes.map((o) => o.step.kind))).toEqual(new Set(["wait"]));
    expect(round.outcomes[0]?.step).toMatchObject({ why: "refreshing", refreshing: true });
  });

  it("confirms a Sonarr import once the section finished refreshing and returns its item and season", async () => {
    plex.addFile(`${SEASON}/E01.mkv`);
    await api.refresh("2", SEASON);
    const waits = [wait("s1", [`${SEASON}/E01.mkv`])];
    expect((await confirmer.poll(waits, T0 + 10_000)).outcomes[0]?.step.kind).toBe("wait");
    expect((await confirmer.poll([{ ...waits[0], sawRefreshing: true } as ConfirmWait], T0 + 20_000)).outcomes[0]?.step.kind).toBe("wait");
    const round = await confirmer.poll([{ ...waits[0], sawRefreshing: true } as ConfirmWait], T0 + 30_000);
    const item = plex.itemOf(`${SEASON}/E01.mkv`);
    expect(round.outcomes).toEqual([
      {
        id: "s1",
        step: {
          kind: "confirmed",
          items: [{ file: `${SEASON}/E01.mkv`, ratingKey: item?.ratingKey, parentRatingKey: item?.parentRatingKey }],
        },
      },
    ]);
    expect(round.lookup).toEqual({ source: "api" });
  });

  it("confirms a deletion once Plex no longer lists the file as present", async () => {
    plex.setRefreshDuration(0);
    plex.addItem(`${SEASON}/E02.mkv`);
    const deletion = wait("d1", [], { deletedFiles: [`${SEASON}/E02.mkv`] });
    expect((await confirmer.poll([deletion], T0 + 10_000)).outcomes[0]?.step).toMatchObject({
      kind: "wait",
      why: "files-missing",
      notConfirmed: [`${SEASON}/E02.mkv`],
    });
    plex.removeFile(`${SEASON}/E02.mkv`);
    await api.refresh("2", SEASON);
    expect((await confirmer.poll([deletion], T0 + 20_000)).outcomes[0]?.step).toEqual({ kind: "confirmed", items: [] });
  });

  it("asks for one re-scan of a file that never appears, then reports it unconfirmed", async () => {
    plex.setRefreshDuration(0);
    const never = wait("n1", [`${SEASON}/Never.mkv`]);
    expect((await confirmer.poll([never], T0 + 60_000)).outcomes[0]?.step).toEqual({
      kind: "rescan",
      notConfirmed: [`${SEASON}/Never.mkv`],
    });
    const again = { ...never, scannedAt: T0 + 60_000, rescanned: true };
    const round = await confirmer.poll([again], T0 + 120_000);
    expect(round.outcomes[0]?.step).toMatchObject({ kind: "unconfirmed", notConfirmed: [`${SEASON}/Never.mkv`] });
  });
});

describe.skipIf(!hasFixtureDb)("confirmation through the real Plex database", () => {
  it("confirms an upgrade from a copy of the fixture: the new file on episode 71 of season 69, the old part gone", async () => {
    const databasePath = copyFixtureDb();
    const show = "/data/TV-Shows/Game of Thrones";
    const db = new Database(databasePath);
    const media = db.prepare("INSERT INTO media_items (library_section_id, metadata_item_id) VALUES (2, 71)").run();
    db.prepare("INSERT INTO media_parts (media_item_id, file, size) VALUES (?, ?, 1)").run(
      media.lastInsertRowid,
      `${show}/S01E02.1080p.mkv`,
    );
    db.prepare("UPDATE media_parts SET deleted_at = 1700000001 WHERE file = ?").run(`${show}/Game.of.Thrones.S01E02.mp4`);
    db.close();
    const fromDb = createConfirmer({ target: plexAfterScan(databasePath), settings });
    const upgrade = wait("u1", [`${show}/S01E02.1080p.mkv`], { deletedFiles: [`${show}/Game.of.Thrones.S01E02.mp4`] });
    const round = await fromDb.poll([upgrade], T0 + 10_000);
    expect(round.outcomes[0]?.step).toEqual({
      kind: "confirmed",
      items: [{ file: `${show}/S01E02.1080p.mkv`, ratingKey: "71", parentRatingKey: "69" }],
    });
    expect(round.lookup).toEqual({ source: "database" });
    // The database answered for the files: Plex was asked for its sections only.
    expect(plex.requests.map((r) => r.url)).toEqual(["/library/sections"]);
  });
});
