import { afterEach, describe, expect, it } from "vitest";
import type { Library } from "../../src/domain.js";
import { ManualClock } from "../../src/lib/clock.js";
import { EmbyApiClient } from "../../src/targets/emby/api.js";
import { EmbyTarget } from "../../src/targets/emby/emby-target.js";
import { JellyfinApiClient } from "../../src/targets/jellyfin/api.js";
import { JellyfinTarget } from "../../src/targets/jellyfin/jellyfin-target.js";
import { createMediaBrowserAfterScan } from "../../src/targets/media-browser/after-scan.js";
import { confirmSettingsOf } from "../../src/targets/media-browser/confirm-config.js";
import { createFolderLookup, FOLDER_REREAD_MS } from "../../src/targets/media-browser/folder-items.js";
import { REFUSED_RETRY_MS } from "../../src/targets/media-browser/folder-scan.js";
import { startFakeEmby, type FakeEmby } from "../fakes/emby.js";
import { startFakeJellyfin, type FakeJellyfin } from "../fakes/jellyfin.js";
import { recordingLogger } from "../helpers/log-lines.js";

const ROOT = "/media/TV";
const SHOWS = { name: "Shows", id: "a656b907eb3a73532e40e44b968d0225", collectionType: "tvshows", locations: [ROOT] };
const SEASON = `${ROOT}/Show/Season 1`;
const E1 = `${SEASON}/Show - S01E01.mkv`;
const E2 = `${SEASON}/Show - S01E02.mkv`;
/** The servers' own LibraryMonitorDelay, kept by the fakes for Media/Updated: a scan that met it would wait a minute. */
const MONITOR_DELAY_MS = 60_000;
const SCAN_MS = 5_000;

let fake: FakeJellyfin | FakeEmby | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

interface Options {
  /** A key the server does not let refresh items. */
  refused?: boolean;
}

const KINDS = [
  {
    server: "Jellyfin" as const,
    async start({ refused }: Options, clock: ManualClock, logger = recordingLogger().logger) {
      const started = await startFakeJellyfin({ libraries: [SHOWS] });
      const token = refused ? started.userToken : started.token;
      const api = new JellyfinApiClient({ baseUrl: started.url, token, urlKey: "U", tokenKey: "T", timeoutMs: 5_000 });
      const target = new JellyfinTarget({ name: "jellyfin", api, clock, logger });
      return { started, api, target, library: { id: SHOWS.id, title: "Shows", type: "tvshows", locations: [ROOT] } as Library };
    },
  },
  {
    server: "Emby" as const,
    async start({ refused }: Options, clock: ManualClock, logger = recordingLogger().logger) {
      const started = await startFakeEmby({ libraries: [SHOWS], refreshForbidden: refused ?? false });
      const api = new EmbyApiClient({ baseUrl: started.url, token: started.token, urlKey: "U", tokenKey: "T", timeoutMs: 5_000 });
      const target = new EmbyTarget({ name: "emby", api, clock, logger });
      // Emby's library id is its media folder's ("3").
      return { started, api, target, library: { id: "3", title: "Shows", type: "tvshows", locations: [ROOT] } as Library };
    },
  },
];

async function setUp(kind: (typeof KINDS)[number], options: Options = {}, logger = recordingLogger()) {
  const clock = new ManualClock(Date.now());
  const s = await kind.start(options, clock, logger.logger);
  fake = s.started;
  s.started.scans.timing = { ms: SCAN_MS, now: () => clock.now(), monitorDelayMs: MONITOR_DELAY_MS };
  const afterScan = createMediaBrowserAfterScan(s.api, confirmSettingsOf({}, kind.server), clock);
  const lists = async (file: string) => (await afterScan.findFiles([{ library: s.library, files: [file] }])).found[0]?.has(file);
  const refreshed = () => s.started.items.refreshes.map((r) => r.path);
  return { ...s, fake: s.started, clock, lists, refreshed, logger };
}

describe.each(KINDS)("a $server scan refreshes the nearest folder the server knows", (kind) => {
  it("refreshes a known season's folder item once for a new episode, listed after the scan's time, not the monitor delay", async () => {
    const s = await setUp(kind);
    s.fake.addItem(E1);
    s.fake.scans.disk.add(E1);
    s.fake.scans.disk.add(E2);
    await s.target.scan(SEASON, s.library, [E2]);
    expect(s.refreshed()).toEqual([SEASON]);
    expect(s.fake.mediaUpdates).toEqual([]);
    s.clock.advance(SCAN_MS - 1);
    expect(await s.lists(E2)).toBe(false);
    s.clock.advance(1);
    expect(await s.lists(E2)).toBe(true);
    expect(s.refreshed()).toEqual([SEASON]);
  });

  it("refreshes the series' folder for a new season, and the library's own item for a new series", async () => {
    const s = await setUp(kind);
    s.fake.addItem(E1);
    await s.target.scan(`${ROOT}/Show/Season 2`, s.library);
    await s.target.scan(`${ROOT}/New Show/Season 1`, s.library);
    expect(s.refreshed()).toEqual([`${ROOT}/Show`, ROOT]);
    const newShow = `${ROOT}/New Show/Season 1/New Show - S01E01.mkv`;
    s.fake.scans.disk.add(newShow);
    s.clock.advance(2 * SCAN_MS);
    expect(await s.lists(newShow)).toBe(true);
  });

  it("confirms a delete through the season's refresh: the file's item goes once the scan has looked", async () => {
    const s = await setUp(kind);
    s.fake.addItem(E1);
    s.fake.addItem(E2);
    s.fake.scans.disk.add(E2);
    expect(await s.lists(E1)).toBe(true);
    await s.target.scan(SEASON, s.library, [E1]);
    expect(s.refreshed()).toEqual([SEASON]);
    s.clock.advance(SCAN_MS);
    expect(await s.lists(E1)).toBe(false);
    expect(await s.lists(E2)).toBe(true);
  });

  it("tries a refused refresh again 10 minutes later, and refreshes again once the key may", async () => {
    const log = recordingLogger();
    const s = await setUp(kind, { refused: true }, log);
    s.fake.addItem(E1);
    await s.target.scan(SEASON, s.library, [E1]);
    s.clock.advance(REFUSED_RETRY_MS - 1);
    await s.target.scan(SEASON, s.library, [E1]);
    expect(s.fake.mediaUpdates).toHaveLength(2);
    const refreshCalls = () => s.fake.requests.filter((r) => r.method === "POST" && /\/Items\/[^/]+\/Refresh/i.test(r.url)).length;
    expect(refreshCalls()).toBe(1);
    s.clock.advance(1);
    await s.target.scan(SEASON, s.library, [E1]);
    expect(refreshCalls()).toBe(2);
    expect(s.fake.mediaUpdates).toHaveLength(3);
    expect(log.at("warn").filter((m) => m.includes("refused to refresh items"))).toHaveLength(1);
    if (!("setRefreshForbidden" in s.fake)) return; // Jellyfin's fake refuses a user's key for good.
    s.fake.setRefreshForbidden(false);
    s.clock.advance(REFUSED_RETRY_MS);
    await s.target.scan(SEASON, s.library, [E1]);
    expect(s.refreshed()).toEqual([SEASON]);
    expect(s.fake.mediaUpdates).toHaveLength(3);
    expect(log.at("info").filter((m) => m.includes("refreshes items with this key again"))).toHaveLength(1);
  });

  it("reports a folder-only scan of a known top folder too (a deleted series): the refresh validates only the folder's children, the server's walk after Media/Updated removes the folder from its parent", async () => {
    const s = await setUp(kind);
    s.fake.addItem(E1);
    // The series was deleted: nothing of it is on the disk any more.
    await s.target.scan(`${ROOT}/Show`, s.library);
    expect(s.refreshed()).toEqual([`${ROOT}/Show`]);
    expect(s.fake.mediaUpdates.flat().map((u) => u.path)).toEqual([`${ROOT}/Show`]);
    // A folder-only scan of a folder the server does not know refreshes its parent alone, which covers it.
    await s.target.scan(`${ROOT}/Other Show`, s.library);
    expect(s.refreshed()).toEqual([`${ROOT}/Show`, ROOT]);
    expect(s.fake.mediaUpdates).toHaveLength(1);
    // Nor is a season reported: a scan carrying a deletion comes folder-only, and its season is still there.
    await s.target.scan(SEASON, s.library);
    expect(s.refreshed()).toEqual([`${ROOT}/Show`, ROOT, SEASON]);
    expect(s.fake.mediaUpdates).toHaveLength(1);
  });

  it("reaches the right item for folder names with quotes, #, ?, % and accents", async () => {
    const s = await setUp(kind);
    const odd = `${ROOT}/Amélie & "Co" #1 ?why 100%/Saison 1`;
    const near = `${ROOT}/Amélie & "Co" #1 ?why 100`;
    s.fake.addItem(`${odd}/É01.mkv`);
    s.fake.addItem(`${near}/Saison 1/É01.mkv`);
    await s.target.scan(odd, s.library);
    expect(s.fake.items.refreshes.map((r) => r.id)).toEqual([s.fake.items.idOf(odd)]);
  });

  it("falls back to Media/Updated when the key may not refresh items, remembers it and says so once", async () => {
    const log = recordingLogger();
    const s = await setUp(kind, { refused: true }, log);
    s.fake.addItem(E1);
    await s.target.scan(SEASON, s.library, [E2]);
    await s.target.scan(SEASON, s.library, [E1]);
    expect(s.fake.mediaUpdates.map((call) => call.map((u) => u.path))).toEqual([[E2], [E1]]);
    expect(s.refreshed()).toEqual([]);
    const refreshCalls = s.fake.requests.filter((r) => r.method === "POST" && /\/Items\/[^/]+\/Refresh/i.test(r.url));
    expect(refreshCalls).toHaveLength(1);
    expect(log.at("warn").filter((m) => m.includes("refused to refresh items"))).toHaveLength(1);
    // Media/Updated waits out the server's LibraryMonitorDelay before it looks.
    s.fake.scans.disk.add(E2);
    s.clock.advance(SCAN_MS);
    expect(await s.lists(E2)).toBe(false);
    s.clock.advance(MONITOR_DELAY_MS);
    expect(await s.lists(E2)).toBe(true);
  });
});

describe("finding a folder's item", () => {
  it("takes Emby one Path call for a known folder", async () => {
    const s = await setUp(KINDS[1] as (typeof KINDS)[number]);
    s.fake.addItem(E1);
    await s.target.scan(SEASON, s.library, [E2]);
    expect(s.fake.items.pathLookups).toEqual([SEASON]);
    expect(s.refreshed()).toEqual([SEASON]);
  });

  it("reads Jellyfin's folders once, then again only for an unknown folder and at most once a minute", async () => {
    const s = await setUp(KINDS[0] as (typeof KINDS)[number]);
    const folderReads = () => s.fake.items.listingFilters.filter((f) => f === "IsFolder").length;
    const s2e1 = `${ROOT}/Show/Season 2/Show - S02E01.mkv`;
    for (const file of [E1, s2e1]) s.fake.scans.disk.add(file);
    s.fake.addItem(E1);
    await s.target.scan(SEASON, s.library, [E2]);
    await s.target.scan(SEASON, s.library, [E2]);
    expect(folderReads()).toBe(1);
    // A new season: unknown, read again at most once a minute; meanwhile its series is refreshed.
    s.fake.addItem(s2e1);
    await s.target.scan(`${ROOT}/Show/Season 2`, s.library);
    expect(folderReads()).toBe(1);
    s.clock.advance(FOLDER_REREAD_MS);
    await s.target.scan(`${ROOT}/Show/Season 2`, s.library);
    await s.target.scan(`${ROOT}/Show/Season 3`, s.library);
    expect(folderReads()).toBe(2);
    expect(s.refreshed()).toEqual([SEASON, SEASON, `${ROOT}/Show`, `${ROOT}/Show/Season 2`, `${ROOT}/Show`]);
  });

  it("reports the folder instead when Jellyfin no longer knows the item, and reads the folders again next time", async () => {
    const s = await setUp(KINDS[0] as (typeof KINDS)[number]);
    s.fake.addItem(E1);
    await s.target.scan(SEASON, s.library, [E2]);
    s.fake.items.forget(SEASON);
    await s.target.scan(SEASON, s.library, [E2]);
    expect(s.fake.mediaUpdates.map((call) => call.map((u) => u.path))).toEqual([[E2]]);
    s.fake.addItem(E1);
    await s.target.scan(SEASON, s.library, [E2]);
    expect(s.fake.items.listingFilters.filter((f) => f === "IsFolder")).toHaveLength(2);
    expect(s.refreshed()).toEqual([SEASON, SEASON]);
  });
});

describe("the nearest known folder, by whole path components", () => {
  const library: Library = { id: "lib", title: "TV", type: "tvshows", locations: ["/TV/", "D:\\Media\\TV"] };
  const lookupOf = (known: Record<string, string>) =>
    createFolderLookup({ findItemByPath: async (_parent, path) => known[path] }, new ManualClock());

  it("never takes a sibling that shares a prefix, and stops at the library's own item", async () => {
    const lookup = lookupOf({ "/TV/Show": "show" });
    expect(await lookup.nearest("/TV/Show 2/Season 1/", library)).toEqual({
      id: "lib",
      path: "/TV",
      library: true,
      itself: false,
      top: false,
    });
    expect(await lookup.nearest("/TV/Show/Season 1", library)).toEqual({
      id: "show",
      path: "/TV/Show",
      library: false,
      itself: false,
      top: true,
    });
    expect(await lookup.nearest("/TV/Show/", library)).toEqual({ id: "show", path: "/TV/Show", library: false, itself: true, top: true });
    expect(await lookup.nearest("/TV", library)).toEqual({ id: "lib", path: "/TV", library: true, itself: true, top: false });
  });

  it("walks Windows paths in their own form", async () => {
    const lookup = lookupOf({ "D:\\Media\\TV\\Show": "show" });
    expect(await lookup.nearest("D:\\Media\\TV\\Show\\Season 1", library)).toEqual({
      id: "show",
      path: "D:\\Media\\TV\\Show",
      library: false,
      itself: false,
      top: true,
    });
  });
});

describe("a folder lookup that gets no answer", () => {
  it("fails the scan within the time-out instead of falling back to Media/Updated", async () => {
    const clock = new ManualClock(Date.now());
    const started = await startFakeJellyfin({ libraries: [SHOWS] });
    fake = started;
    const api = new JellyfinApiClient({ baseUrl: started.url, token: started.token, urlKey: "U", tokenKey: "T", timeoutMs: 300 });
    const target = new JellyfinTarget({ name: "jellyfin", api, clock });
    started.items.hang = true;
    const library: Library = { id: SHOWS.id, title: "Shows", type: "tvshows", locations: [ROOT] };
    await expect(target.scan(SEASON, library, [E1])).rejects.toThrow("did not answer within 300 ms");
    expect(started.mediaUpdates).toEqual([]);
    expect(started.items.refreshes).toEqual([]);
  });
});
