import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeEmby, type FakeEmby } from "../fakes/emby.js";
import { startFakeJellyfin, type FakeJellyfin } from "../fakes/jellyfin.js";
import { allowViolations } from "../fakes/spec/violations.js";

// The fakes stand in for servers that cannot run here; these checks pin them to what the real servers do (apis.md §4).
let jellyfin: FakeJellyfin;
let legacy: FakeJellyfin;
let emby: FakeEmby;

beforeAll(async () => {
  [jellyfin, legacy, emby] = await Promise.all([startFakeJellyfin(), startFakeJellyfin({ legacyAuthorization: true }), startFakeEmby()]);
});

afterAll(async () => {
  await Promise.all([jellyfin.close(), legacy.close(), emby.close()]);
});

const UPDATE = JSON.stringify({ Updates: [{ Path: "/media/TV/Show", UpdateType: "Created" }] });
const json = { "Content-Type": "application/json" };

function post(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(`${url}/Library/Media/Updated`, { method: "POST", headers, body });
}

describe("the fake Jellyfin", () => {
  const auth = (token: string) => ({ Authorization: `MediaBrowser Client="test", Token="${token}"` });

  it("answers 204 to a Media/Updated body with Updates", async () => {
    expect((await post(jellyfin.url, { ...json, ...auth(jellyfin.token) }, UPDATE)).status).toBe(204);
  });

  it("answers 401 without a token and to the legacy X-Emby-Token header (off by default in v12)", async () => {
    // Sent without a key on purpose, to see the fake refuse it.
    allowViolations(/carries none of the credentials/);
    expect((await post(jellyfin.url, json, UPDATE)).status).toBe(401);
    expect((await post(jellyfin.url, { ...json, "X-Emby-Token": jellyfin.token }, UPDATE)).status).toBe(401);
  });

  it("accepts the legacy header when legacy authorization is on (10.11)", async () => {
    expect((await post(legacy.url, { ...json, "X-Emby-Token": legacy.token }, UPDATE)).status).toBe(204);
  });

  it("reads property names case-insensitively, as autoscan's lowercase body shows", async () => {
    const body = JSON.stringify({ updates: [{ path: "/media/x", updateType: "Modified" }] });
    expect((await post(jellyfin.url, { ...json, ...auth(jellyfin.token) }, body)).status).toBe(204);
    expect(jellyfin.mediaUpdates.at(-1)).toEqual([{ path: "/media/x", updateType: "Modified" }]);
  });

  it("answers 400 for a body without Updates or with an entry without Path, 415 for a body that is not JSON", async () => {
    const headers = { ...json, ...auth(jellyfin.token) };
    expect((await post(jellyfin.url, headers, "{}")).status).toBe(400);
    expect((await post(jellyfin.url, headers, JSON.stringify({ Updates: [{ UpdateType: "Created" }] }))).status).toBe(400);
    expect((await post(jellyfin.url, { "Content-Type": "text/plain", ...auth(jellyfin.token) }, UPDATE)).status).toBe(415);
  });

  it("answers 404 for ScanPath without the plugin", async () => {
    const response = await fetch(`${jellyfin.url}/Library/ScanPath`, {
      method: "POST",
      headers: { ...json, ...auth(jellyfin.token) },
      body: JSON.stringify({ Path: "/media/x" }),
    });
    expect(response.status).toBe(404);
  });
});

describe("the fake Emby", () => {
  it("answers 200 to Media/Updated under /emby and at the root, with the key as header or api_key", async () => {
    expect((await post(`${emby.url}/emby`, { ...json, "X-Emby-Token": emby.token }, UPDATE)).status).toBe(200);
    expect((await fetch(`${emby.url}/Library/SelectableMediaFolders?api_key=${emby.token}`)).status).toBe(200);
  });

  it("answers 401 without the key and 400 without Updates", async () => {
    // Sent without a key on purpose, to see the fake refuse it.
    allowViolations(/carries none of the credentials/);
    expect((await post(`${emby.url}/emby`, json, UPDATE)).status).toBe(401);
    expect((await post(`${emby.url}/emby`, { ...json, "X-Emby-Token": emby.token }, '{"Other":1}')).status).toBe(400);
  });
});

describe("the fakes' scans", () => {
  const TV = { name: "TV", id: "e1", collectionType: "tvshows", locations: ["/mnt/tv"] };
  let now = 0;
  let timed: FakeEmby;
  beforeEach(async () => {
    now = 0;
    timed = await startFakeEmby({ libraries: [TV], scanTiming: { ms: 5_000, now: () => now, monitorDelayMs: 60_000 } });
  });
  afterEach(() => timed.close());

  const headers = () => ({ ...json, "X-Emby-Token": timed.token });
  const report = (folder: string) => post(timed.url, headers(), JSON.stringify({ Updates: [{ Path: folder, UpdateType: "Created" }] }));
  const refresh = (id: string) => fetch(`${timed.url}/emby/Items/${id}/Refresh?Recursive=true`, { method: "POST", headers: headers() });
  const listed = async () => {
    const res = await fetch(`${timed.url}/emby/Items?Recursive=true&Fields=Path&Filters=IsNotFolder`, { headers: headers() });
    return ((await res.json()) as { Items: Array<{ Path: string }> }).Items.map((i) => i.Path).sort();
  };

  it("waits out the LibraryMonitorDelay after the last report of a tree, then scans its paths together; another tree waits on its own", async () => {
    timed.scans.disk.add("/mnt/tv/A/A1.mkv");
    timed.scans.disk.add("/mnt/tv/A/Season 2/A2.mkv");
    timed.scans.disk.add("/mnt/tv/B/B1.mkv");
    expect((await report("/mnt/tv/A")).status).toBe(200);
    expect((await report("/mnt/tv/B")).status).toBe(200);
    now = 30_000;
    expect((await report("/mnt/tv/A/Season 2")).status).toBe(200);
    now = 64_999;
    expect(await listed()).toEqual([]);
    // B's walk: 60 s after its report, then the 5 s scan; A's was put off by its second report.
    now = 65_000;
    expect(await listed()).toEqual(["/mnt/tv/B/B1.mkv"]);
    now = 94_999;
    expect(await listed()).toEqual(["/mnt/tv/B/B1.mkv"]);
    now = 95_000;
    expect(await listed()).toEqual(["/mnt/tv/A/A1.mkv", "/mnt/tv/A/Season 2/A2.mkv", "/mnt/tv/B/B1.mkv"]);
  });

  it("refresh a folder item at once: its new files listed and its gone ones dropped after the scan's time, nothing else looked at", async () => {
    const season = "/mnt/tv/Show/Season 1";
    timed.addItem(`${season}/S01E01 720p.mkv`);
    timed.scans.disk.add(`${season}/S01E01 1080p.mkv`);
    timed.scans.disk.add("/mnt/tv/Other/Season 1/O1.mkv");
    const id = timed.items.idOf(season) as string;
    expect((await refresh(id)).status).toBe(200);
    now = 4_999;
    expect(await listed()).toEqual([`${season}/S01E01 720p.mkv`]);
    now = 5_000;
    expect(await listed()).toEqual([`${season}/S01E01 1080p.mkv`]);
  });

  it("refresh the library's own item over every location, and a file item over that file alone", async () => {
    timed.scans.disk.add("/mnt/tv/New/Season 1/N1.mkv");
    const kept = timed.addItem("/mnt/tv/Old/Season 1/O1.mkv");
    timed.scans.disk.add("/mnt/tv/Old/Season 1/O2.mkv");
    // The file item's refresh: its file is gone from disk, so its item goes; O2 beside it is not looked at.
    expect((await refresh(kept)).status).toBe(200);
    now = 5_000;
    expect(await listed()).toEqual([]);
    // Emby numbers its libraries' items: this one is "3".
    expect((await refresh("3")).status).toBe(200);
    now = 10_000;
    expect(await listed()).toEqual(["/mnt/tv/New/Season 1/N1.mkv", "/mnt/tv/Old/Season 1/O2.mkv"]);
    expect(timed.items.refreshes.map((r) => r.path)).toEqual(["/mnt/tv/Old/Season 1/O1.mkv", "/mnt/tv"]);
  });

  it("answer 404 to a refresh of an item they do not hold", async () => {
    expect((await refresh("ffff")).status).toBe(404);
  });
});
