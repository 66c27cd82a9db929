import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { DEFAULT_SECTIONS } from "../fakes/plex.js";
import { postJson, startTestService, waitFor, type TestService } from "../helpers/service.js";
import { hasFixtureDb, writablePlexDb, type WritablePlexDb } from "./fixture-db.js";
import { advanceUntil, scanOf, type ScanView } from "./serve-steps.js";

// Rows of the fixture database: Game of Thrones (metadata 68), its season 1 (69) in section 2 "TV Shows".
const SERIES = "/data/TV-Shows/Game of Thrones";
const SEASON_ONE = { sectionId: 2, ratingKey: 69 };
const EXISTING = `${SERIES}/Game.of.Thrones.S01E01.mkv`;
const NEW_EPISODE = `${SERIES}/Game.of.Thrones.S01E02.mkv`;

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function start(db: WritablePlexDb, clock: ManualClock): Promise<TestService> {
  return startTestService(
    {
      PLEX_CONFIRM_SCANS: true,
      PLEX_DATABASE_PATH: db.file,
      PLEX_CONFIRM_RESCAN_DELAY: 30,
      SERVER_PATH_MAPPINGS: { "/data/TV-Shows/": ["/tv/"] },
    },
    { clock, sections: DEFAULT_SECTIONS },
  );
}

async function untilState(service: TestService, clock: ManualClock, folder: string, state: string): Promise<ScanView> {
  const scan = () => scanOf(service.base, folder);
  await advanceUntil(
    clock,
    () => service.plex.requests.length,
    async () => (await scan())?.state === state,
    `${folder} to be ${state}`,
  );
  return (await scan()) as ScanView;
}

/** Sends the webhook and waits until Plex accepted the scan and the queue holds it as being confirmed. */
async function scanned(service: TestService, clock: ManualClock, body: unknown): Promise<void> {
  expect((await postJson(service.base, body)).status).toBe(202);
  clock.advance(100);
  await service.plex.waitForRefreshes(1);
  await waitFor(() => service.logs().includes("waiting for Plex to confirm it"), 5_000, "the delivery to be recorded");
}

function sonarr(eventType: string, relativePath: string) {
  return { eventType, series: { title: "Game of Thrones", path: "/tv/Game of Thrones" }, episodeFile: { relativePath } };
}

describe.runIf(hasFixtureDb)("serve: confirmation through a copy of the real Plex database", () => {
  it("confirms an import once its part is in the database, asking the API for nothing but the sections", async () => {
    const db = writablePlexDb();
    const clock = new ManualClock(Date.now());
    t = await start(db, clock);
    await scanned(t, clock, sonarr("Download", "Game.of.Thrones.S01E02.mkv"));
    // Plex's scanner added the episode under season 1, as its rows show.
    const ratingKey = db.addEpisode(NEW_EPISODE, SEASON_ONE);
    expect(db.itemOf(NEW_EPISODE)).toEqual({ ratingKey, parentRatingKey: "69" });
    const scan = await untilState(t, clock, SERIES, "done");
    expect(scan.deliveries[0]?.detail).toMatch(/^confirmed \d+ s after the first request/);
    expect(scan.deliveries[0]?.confirmedAfterMs).toBeGreaterThanOrEqual(10_000);
    // The dashboard shows the same figure, in words.
    const page = await (await fetch(`${t.base}/`)).text();
    expect(page).toMatch(/<small class="confirmed-after">confirmed in \d+ s<\/small>/);
    expect(t.plex.refreshes).toEqual([{ sectionId: "2", path: SERIES }]);
    // The file was found in the database: no folder view or item listing was asked of the API.
    expect(t.plex.requests.filter((r) => /\/(folder|all)\b/.test(r.url))).toEqual([]);
  });

  it("scans the folder once more when the part never appears, then marks the scan unconfirmed with the file", async () => {
    const db = writablePlexDb();
    const clock = new ManualClock(Date.now());
    t = await start(db, clock);
    await scanned(t, clock, sonarr("Download", "Game.of.Thrones.S01E02.mkv"));
    const scan = await untilState(t, clock, SERIES, "unconfirmed");
    expect(t.plex.refreshes).toEqual([
      { sectionId: "2", path: SERIES },
      { sectionId: "2", path: SERIES },
    ]);
    expect(scan.deliveries[0]?.state).toBe("unconfirmed");
    expect(scan.deliveries[0]?.lastError).toContain(NEW_EPISODE);
    expect(scan.deliveries[0]?.confirmedAfterMs).toBeNull();
    expect(db.itemOf(NEW_EPISODE)).toBeUndefined();
  });

  it("confirms a deletion once the part is gone from the database, and not while it is still there", async () => {
    const db = writablePlexDb();
    const clock = new ManualClock(Date.now());
    t = await start(db, clock);
    expect(db.itemOf(EXISTING)).toEqual({ ratingKey: "70", parentRatingKey: "69" });
    await scanned(t, clock, sonarr("EpisodeFileDelete", "Game.of.Thrones.S01E01.mkv"));
    // A poll with the part still there: the deletion waits, and the queue says which file is not as expected.
    const service = t;
    const detail = async () => (await scanOf(service.base, SERIES))?.deliveries[0]?.detail ?? "";
    const polled = async () => (await detail()).includes(EXISTING);
    await advanceUntil(clock, () => service.plex.requests.length, polled, "a poll that finds the part still there");
    expect((await scanOf(t.base, SERIES))?.state).toBe("confirming");
    db.removePart(EXISTING);
    const scan = await untilState(t, clock, SERIES, "done");
    expect(scan.deliveries[0]?.detail).toMatch(/^confirmed \d+ s after the first request/);
    expect(t.plex.refreshes).toHaveLength(1);
  });
});
