import { afterEach, describe, expect, it } from "vitest";
import { withTargetDefaults } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { ManualClock } from "../../src/lib/clock.js";
import { advanceUntil, scanOf, type ScanView } from "../after-scan/serve-steps.js";
import { startFakeEmby, type FakeEmby } from "../fakes/emby.js";
import { startFakeJellyfin, type FakeJellyfin } from "../fakes/jellyfin.js";
import { postJson, startTestService, storedScans, waitFor, type TestService } from "../helpers/service.js";
import { loadFixture, webhookFixtures } from "../triggers/helpers.js";

/**
 * Plex sees /data/Movies, Jellyfin /media/Movies, Emby /mnt/movies; Bazarr
 * and Tdarr (and Radarr) write /movies (SERVER_PATH_MAPPINGS: /movies → /data/Movies).
 */
interface Servers {
  t: TestService;
  jellyfin: FakeJellyfin;
  emby: FakeEmby;
  clock: ManualClock;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function threeServers(overrides: Partial<Config> = {}): Promise<Servers> {
  const jellyfin = await startFakeJellyfin({
    libraries: [{ name: "Movies", id: "jm", collectionType: "movies", locations: ["/media/Movies"] }],
  });
  const emby = await startFakeEmby({ libraries: [{ name: "Movies", id: "em", collectionType: "movies", locations: ["/mnt/movies"] }] });
  cleanups.push(() => Promise.all([jellyfin.close(), emby.close()]).then(() => undefined));
  const TARGETS = [
    withTargetDefaults({
      TYPE: "jellyfin",
      NAME: "jellyfin",
      URL: jellyfin.url,
      TOKEN: jellyfin.token,
      PATH_MAPPINGS: { "/media/Movies/": ["/data/Movies/"] },
    }),
    withTargetDefaults({
      TYPE: "emby",
      NAME: "emby",
      URL: emby.url,
      TOKEN: emby.token,
      PATH_MAPPINGS: { "/mnt/movies/": ["/data/Movies/"] },
    }),
  ];
  const clock = new ManualClock(Date.now());
  const t = await startTestService({ TARGETS, ...overrides }, { clock });
  cleanups.push(() => t.stop());
  return { t, jellyfin, emby, clock };
}

/** A movie every server already holds, on their disks too; returns each server's id for its item. */
function knownMovie(s: Servers, name: string): { plex: string; jellyfin: string; emby: string } {
  const file = `${name}/${name}.mkv`;
  s.jellyfin.scans.disk.add(`/media/Movies/${file}`);
  s.emby.scans.disk.add(`/mnt/movies/${file}`);
  return {
    plex: s.t.plex.addItem(`/data/Movies/${file}`).ratingKey,
    jellyfin: s.jellyfin.addItem(`/media/Movies/${file}`),
    emby: s.emby.addItem(`/mnt/movies/${file}`),
  };
}

/** autopulse's (and Bazarr's) `GET /triggers/manual?path=…`; queued answers 200, as autoscan's route did. */
async function askPath(s: Servers, path: string, extra: Record<string, string> = {}): Promise<number> {
  const query = new URLSearchParams({ path, ...extra });
  return (await fetch(`${s.t.base}/triggers/manual?${query.toString()}`)).status;
}

const allRequests = (s: Servers) => s.t.plex.requests.length + s.jellyfin.requests.length + s.emby.requests.length;

/** Moves the clock until the scan of `folder` ended as `state`, the servers quiet after each step. */
async function until(s: Servers, folder: string, state: string): Promise<ScanView> {
  const scan = () => scanOf(s.t.base, folder);
  await advanceUntil(
    s.clock,
    () => allRequests(s),
    async () => (await scan())?.state === state,
    `${folder} to be ${state}`,
  );
  return (await scan()) as ScanView;
}

const refreshedIds = (server: FakeJellyfin | FakeEmby) => server.items.refreshes.map((r) => r.id);
/** The folder scan, then the item refresh: a movies library keeps no item for a movie's folder, so its scan refreshes the library's. */
const scannedThenRefreshed = (server: FakeJellyfin | FakeEmby, root: string, file: string) =>
  expect(server.items.refreshes.map((r) => r.path)).toEqual([root, `${root}/${file}`]);

describe("item refresh through serve", () => {
  it("refreshes exactly the movie's item on every server for a Bazarr subtitle, and scans nothing", async () => {
    const s = await threeServers();
    const ids = knownMovie(s, "Heat (1995)");
    knownMovie(s, "Ronin (1998)");
    expect(await askPath(s, "/movies/Heat (1995)/Heat (1995).en.forced.srt")).toBe(200);
    const scan = await until(s, "/data/Movies/Heat (1995)", "done");
    expect(scan.deliveries.map((d) => [d.state, d.detail])).toEqual(Array(3).fill(["done", "refreshed 1 item(s); no folder scan needed"]));
    expect(s.t.plex.itemRefreshes).toEqual([ids.plex]);
    expect(refreshedIds(s.jellyfin)).toEqual([ids.jellyfin]);
    expect(refreshedIds(s.emby)).toEqual([ids.emby]);
    // Nothing else: no folder scan, no Media/Updated, no analyze (a subtitle does not change the media).
    expect(s.t.plex.refreshes).toEqual([]);
    expect(s.jellyfin.mediaUpdates).toEqual([]);
    expect(s.emby.mediaUpdates).toEqual([]);
    expect(s.t.plex.analyzed).toEqual([]);
    // Refreshing an item is an admin call on Jellyfin: the API key went in the MediaBrowser header.
    expect(s.jellyfin.requests.filter((r) => r.url.includes("/Refresh")).map((r) => r.auth)).toEqual(["authorization"]);
  });

  it("scans the folder once, then refreshes and analyzes the item once, for a Tdarr remux replaced in place", async () => {
    const s = await threeServers({ PLEX_CONFIRM_SCANS: true });
    const ids = knownMovie(s, "Heat (1995)");
    // Tdarr's Send Web Request body (docs/connect/tdarr.md), after Replace Original File.
    const body = { eventType: "Manual", filepath: "/movies/Heat (1995)/Heat (1995).mkv", refresh: true };
    expect((await postJson(s.t.base, body)).status).toBe(202);
    const scan = await until(s, "/data/Movies/Heat (1995)", "done");
    expect(scan.deliveries.find((d) => d.target === "plex")?.detail).toMatch(/^confirmed .*; refreshed 1 item\(s\)$/);
    expect(s.t.plex.refreshes).toEqual([{ sectionId: "1", path: "/data/Movies/Heat (1995)" }]);
    expect(s.t.plex.itemRefreshes).toEqual([ids.plex]);
    expect(s.t.plex.analyzed).toEqual([ids.plex]);
    scannedThenRefreshed(s.jellyfin, "/media/Movies", "Heat (1995)/Heat (1995).mkv");
    scannedThenRefreshed(s.emby, "/mnt/movies", "Heat (1995)/Heat (1995).mkv");
    expect(refreshedIds(s.jellyfin)[1]).toBe(ids.jellyfin);
    expect(refreshedIds(s.emby)[1]).toBe(ids.emby);
    // Emby's GET /Items filters by Path: the movie's folder (no item) for the scan, then the video's item, no walk through the library.
    expect(s.emby.items.pathLookups).toEqual(["/mnt/movies/Heat (1995)", "/mnt/movies/Heat (1995)/Heat (1995).mkv"]);
    expect(s.emby.items.listings).toEqual([]);
    // Jellyfin's has no such filter: its library is paged.
    expect(s.jellyfin.items.listings.length).toBeGreaterThan(0);
  });

  it("scans the folder for a subtitle of a video Plex does not hold yet, then refreshes the item once it is confirmed", async () => {
    const s = await threeServers({ PLEX_CONFIRM_SCANS: true });
    s.t.plex.addFile("/data/Movies/Heat (1995)/Heat (1995).mkv");
    s.jellyfin.scans.disk.add("/media/Movies/Heat (1995)/Heat (1995).mkv");
    s.emby.scans.disk.add("/mnt/movies/Heat (1995)/Heat (1995).mkv");
    expect(await askPath(s, "/movies/Heat (1995)/Heat (1995).en.srt")).toBe(200);
    const scan = await until(s, "/data/Movies/Heat (1995)", "done");
    const item = s.t.plex.itemOf("/data/Movies/Heat (1995)/Heat (1995).mkv");
    expect(scan.deliveries.find((d) => d.target === "plex")?.detail).toMatch(/^confirmed .*; refreshed 1 item\(s\)$/);
    expect(s.t.plex.refreshes).toEqual([{ sectionId: "1", path: "/data/Movies/Heat (1995)" }]);
    expect(s.t.plex.itemRefreshes).toEqual([item?.ratingKey]);
    expect(s.t.plex.analyzed).toEqual([]);
    // Jellyfin and Emby do not hold it either: their scan refreshes the library (which picks the video up with its subtitle),
    // and once their confirmation found the video, its item is refreshed, as on Plex.
    expect(s.jellyfin.mediaUpdates).toEqual([]);
    scannedThenRefreshed(s.jellyfin, "/media/Movies", "Heat (1995)/Heat (1995).mkv");
    scannedThenRefreshed(s.emby, "/mnt/movies", "Heat (1995)/Heat (1995).mkv");
  });

  it.skipIf(!webhookFixtures.run)(
    "confirms and analyzes a Radarr upgrade that kept the file's path, instead of waiting for it to vanish",
    async () => {
      const s = await threeServers({ PLEX_CONFIRM_SCANS: true, PLEX_ANALYZE_TYPE: "basic" });
      const body = loadFixture("radarr-download-upgrade.json") as Record<string, unknown> & {
        movieFile: { path: string; relativePath: string };
      };
      const [replaced] = body.deletedFiles as Array<Record<string, unknown>>;
      const sameName = { ...body, deletedFiles: [{ ...replaced, path: body.movieFile.path, relativePath: body.movieFile.relativePath }] };
      const file = body.movieFile.path.replace(/^\/movies\//, "/data/Movies/");
      const ratingKey = s.t.plex.addItem(file).ratingKey;
      // Jellyfin and Emby confirm too: the file is on their disks.
      s.jellyfin.scans.disk.add(file.replace(/^\/data\/Movies\//, "/media/Movies/"));
      s.emby.scans.disk.add(file.replace(/^\/data\/Movies\//, "/mnt/movies/"));
      expect((await postJson(s.t.base, sameName)).status).toBe(202);
      const folder = file.slice(0, file.lastIndexOf("/"));
      const scan = await until(s, folder, "done");
      expect(scan.deliveries.find((d) => d.target === "plex")?.detail).toMatch(/^confirmed .*analyzed 1 item\(s\); refreshed 1 item\(s\)$/);
      expect(s.t.plex.analyzed).toEqual([ratingKey]);
      expect(s.t.plex.itemRefreshes).toEqual([ratingKey]);
      expect(storedScans(s.t).map((r) => r.state)).toEqual(["done"]);
    },
  );

  it("scans and refreshes a FileFlows remux named with ?path=…&refresh=1 once", async () => {
    const s = await threeServers();
    const ids = knownMovie(s, "Heat (1995)");
    expect(await askPath(s, "/movies/Heat (1995)/Heat (1995).mkv", { refresh: "1" })).toBe(200);
    const scan = await until(s, "/data/Movies/Heat (1995)", "done");
    // Plex's confirmation is off here; Jellyfin's and Emby's is on by default, and refreshes the item once confirmed.
    const details = Object.fromEntries(scan.deliveries.map((d) => [d.target, d.detail]));
    expect(details.plex).toBe("scanned; refreshed 1 known item(s)");
    expect([details.jellyfin, details.emby]).toEqual(
      Array(2).fill(expect.stringMatching(/^confirmed \d+ s after the first request; refreshed 1 item\(s\)$/)),
    );
    expect(s.t.plex.refreshes).toHaveLength(1);
    expect([s.t.plex.itemRefreshes, s.t.plex.analyzed]).toEqual([[ids.plex], [ids.plex]]);
    scannedThenRefreshed(s.jellyfin, "/media/Movies", "Heat (1995)/Heat (1995).mkv");
    scannedThenRefreshed(s.emby, "/mnt/movies", "Heat (1995)/Heat (1995).mkv");
    expect([refreshedIds(s.jellyfin)[1], refreshedIds(s.emby)[1]]).toEqual([ids.jellyfin, ids.emby]);
  });

  it("answers 400 and queues nothing for a refresh flag that is not on or off", async () => {
    const s = await threeServers();
    expect(await askPath(s, "/movies/Heat (1995)/Heat (1995).mkv", { refresh: "maybe" })).toBe(400);
    expect(
      (await postJson(s.t.base, { eventType: "Manual", filepath: "/movies/Heat (1995)/Heat (1995).mkv", refresh: "sure" })).status,
    ).toBe(400);
    await waitFor(() => true);
    expect(storedScans(s.t)).toEqual([]);
  });
});
