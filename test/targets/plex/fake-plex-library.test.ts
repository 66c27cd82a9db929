import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { allowViolations } from "../../fakes/spec/violations.js";

// The after-scan side of the fake: what tests of confirmation, analyze and empty trash rely on.
let plex: FakePlex;

beforeEach(async () => {
  plex = await startFakePlex({ refreshDuration: 2 });
});

afterEach(async () => {
  await plex.close();
});

const call = (path: string, init: { method?: string; token?: string; accept?: string } = {}): Promise<Response> =>
  fetch(plex.url + path, {
    method: init.method ?? "GET",
    headers: { "X-Plex-Token": init.token ?? plex.token, Accept: init.accept ?? "application/json" },
  });

async function refreshingOf(sectionId: string): Promise<unknown> {
  const body = (await (await call("/library/sections")).json()) as {
    MediaContainer: { Directory: Array<{ key: string; refreshing: unknown }> };
  };
  return body.MediaContainer.Directory.find((d) => d.key === sectionId)?.refreshing;
}

async function folder(path: string): Promise<{ MediaContainer: { Metadata?: Array<Record<string, unknown>> } }> {
  return (await (await call(path)).json()) as { MediaContainer: { Metadata?: Array<Record<string, unknown>> } };
}

describe("fake Plex library", () => {
  it("shows a scanned section refreshing for the configured polls, then lists the new file with its Media/Part/file", async () => {
    plex.addFile("/data/TV-Shows/Show/Season 1/S01E01.mkv");
    await call("/library/sections/2/refresh?path=%2Fdata%2FTV-Shows%2FShow%2FSeason%201");
    expect(await refreshingOf("2")).toBe(true);
    expect(plex.itemOf("/data/TV-Shows/Show/Season 1/S01E01.mkv")).toBeUndefined();
    expect(await refreshingOf("2")).toBe(true);
    expect(await refreshingOf("2")).toBe(false);
    const root = await folder("/library/sections/2/folder");
    expect(root.MediaContainer.Metadata).toEqual([{ key: "/library/sections/2/folder?parent=1", title: "Show" }]);
    const show = await folder("/library/sections/2/folder?parent=1");
    const seasonKey = show.MediaContainer.Metadata?.[0]?.key as string;
    const episodes = await folder(seasonKey);
    expect(episodes.MediaContainer.Metadata?.[0]).toMatchObject({
      type: "episode",
      Media: [{ Part: [{ file: "/data/TV-Shows/Show/Season 1/S01E01.mkv" }] }],
    });
    expect(episodes.MediaContainer.Metadata?.[0]?.parentRatingKey).toMatch(/^\d+$/);
  });

  it("keeps a manual refresh running until the test finishes it, and sends refreshing as 0/1 when asked", async () => {
    await plex.close();
    // 0/1 in JSON is no answer the description (boolean) or apis.md §1.3 knows of; kept to pin scanarr's tolerance of it.
    allowViolations(/refreshing must be boolean/);
    plex = await startFakePlex({ refreshDuration: "manual", refreshingAs: "number" });
    await call("/library/sections/1/refresh?path=%2Fdata%2FMovies%2FX");
    for (let i = 0; i < 3; i++) expect(await refreshingOf("1")).toBe(1);
    plex.finishRefresh("1");
    expect(await refreshingOf("1")).toBe(0);
  });

  it("moves an item whose file is gone to the trash at the next refresh, counts it, and empties it on PUT emptyTrash", async () => {
    plex.setRefreshDuration(0);
    plex.addItem("/data/Movies/A (2001)/A.mkv");
    plex.removeFile("/data/Movies/A (2001)/A.mkv");
    await call("/library/sections/1/refresh?path=%2Fdata%2FMovies%2FA%20(2001)");
    const count = await call("/library/sections/1/all?trash=1&type=1&X-Plex-Container-Start=0&X-Plex-Container-Size=0");
    expect(await count.json()).toMatchObject({ MediaContainer: { size: 0, totalSize: 1 } });
    allowViolations(/GET \/library\/sections\/1\/emptyTrash/);
    expect((await call("/library/sections/1/emptyTrash", { method: "GET" })).status).toBe(405);
    expect((await call("/library/sections/1/emptyTrash", { method: "PUT" })).status).toBe(200);
    expect(plex.emptiedTrash).toEqual(["1"]);
    expect(plex.trashCount("1")).toBe(0);
  });

  it("records analyze and item refresh on PUT only, and answers 404 for an unknown item", async () => {
    const item = plex.addItem("/data/Movies/B.mkv");
    allowViolations(/GET \/library\/metadata\/\d+\/analyze/);
    expect((await call(`/library/metadata/${item.ratingKey}/analyze`)).status).toBe(405);
    expect((await call(`/library/metadata/${item.ratingKey}/analyze`, { method: "PUT" })).status).toBe(200);
    expect((await call(`/library/metadata/${item.ratingKey}/refresh`, { method: "PUT" })).status).toBe(200);
    expect((await call("/library/metadata/99999/analyze", { method: "PUT" })).status).toBe(404);
    expect([plex.analyzed, plex.itemRefreshes]).toEqual([[item.ratingKey], [item.ratingKey]]);
  });

  it("lets a shared user's token read but answers 403 to its scans, analyze and emptyTrash", async () => {
    const item = plex.addItem("/data/Movies/C.mkv");
    const shared = { token: plex.sharedToken };
    expect((await call("/library/sections", shared)).status).toBe(200);
    expect((await call("/library/sections/1/folder", shared)).status).toBe(200);
    expect((await call("/library/sections/1/refresh?path=%2Fdata%2FMovies", shared)).status).toBe(403);
    expect((await call(`/library/metadata/${item.ratingKey}/analyze`, { ...shared, method: "PUT" })).status).toBe(403);
    expect((await call("/library/sections/1/emptyTrash", { ...shared, method: "PUT" })).status).toBe(403);
    expect([plex.refreshes, plex.analyzed, plex.emptiedTrash]).toEqual([[], [], []]);
  });

  it("lists each location by its full path at the root of a section with several", async () => {
    plex.setSections([{ key: "4", title: "Films", type: "movie", locations: ["/a/Films", "/b/Films"] }]);
    const root = await folder("/library/sections/4/folder");
    expect(root.MediaContainer.Metadata?.map((e) => e.title)).toEqual(["/a/Films", "/b/Films"]);
  });

  it("writes folders as Directory and items as Video with nested Media and Part in XML", async () => {
    plex.addItem("/data/Movies/D (2004)/D.mkv");
    const root = await (await call("/library/sections/1/folder", { accept: "" })).text();
    expect(root).toMatch(/<Directory key="\/library\/sections\/1\/folder\?parent=\d+" title="D \(2004\)" \/>/);
    const key = /key="([^"]+)"/.exec(root)?.[1]?.replace(/&amp;/g, "&") ?? "";
    const inner = await (await call(key, { accept: "" })).text();
    expect(inner).toMatch(/<Video ratingKey="\d+"[^>]*>\s*<Media [^>]*>\s*<Part [^>]*file="\/data\/Movies\/D \(2004\)\/D.mkv"/);
  });
});

describe("fake Plex with timed scans", () => {
  it("keeps each scan refreshing for its time after the ones before it, and lists its files only once it ended", async () => {
    let now = 0;
    const timed = await startFakePlex({ refreshDuration: { ms: 5_000, now: () => now } });
    try {
      const get = (path: string) => fetch(timed.url + path, { headers: { "X-Plex-Token": timed.token, Accept: "application/json" } });
      timed.addFile("/data/TV-Shows/A/S01E01.mkv");
      timed.addFile("/data/TV-Shows/B/S01E01.mkv");
      await get("/library/sections/2/refresh?path=%2Fdata%2FTV-Shows%2FA");
      await get("/library/sections/2/refresh?path=%2Fdata%2FTV-Shows%2FB");
      now = 4_999;
      expect(timed.isRefreshing("2")).toBe(true);
      expect(timed.itemOf("/data/TV-Shows/A/S01E01.mkv")).toBeUndefined();
      now = 5_000;
      await get("/library/sections");
      expect(timed.itemOf("/data/TV-Shows/A/S01E01.mkv")).toBeDefined();
      expect(timed.itemOf("/data/TV-Shows/B/S01E01.mkv")).toBeUndefined();
      expect(timed.isRefreshing("2")).toBe(true);
      now = 10_000;
      expect(timed.isRefreshing("2")).toBe(false);
      expect(timed.itemOf("/data/TV-Shows/B/S01E01.mkv")).toBeDefined();
    } finally {
      await timed.close();
    }
  });
});
