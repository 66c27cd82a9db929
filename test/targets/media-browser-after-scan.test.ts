import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { EmbyApiClient } from "../../src/targets/emby/api.js";
import { JellyfinApiClient } from "../../src/targets/jellyfin/api.js";
import { createMediaBrowserAfterScan } from "../../src/targets/media-browser/after-scan.js";
import { confirmSettingsOf } from "../../src/targets/media-browser/confirm-config.js";
import { LISTING_TTL_MS } from "../../src/targets/media-browser/file-lookup.js";
import { startFakeEmby, type FakeEmby } from "../fakes/emby.js";
import { startFakeJellyfin, type FakeJellyfin } from "../fakes/jellyfin.js";

const LIBRARY = { name: "Shows", id: "a656b907", collectionType: "tvshows", locations: ["/media/TV"] };
const EPISODE = "/media/TV/Show/Season 1/Show - S01E01.mkv";

let fake: FakeJellyfin | FakeEmby | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const KINDS = [
  {
    server: "Jellyfin" as const,
    async start() {
      const started = await startFakeJellyfin({ libraries: [LIBRARY] });
      const api = new JellyfinApiClient({ baseUrl: started.url, token: started.token, urlKey: "U", tokenKey: "T", timeoutMs: 5_000 });
      return { started, api, libraryId: LIBRARY.id };
    },
  },
  {
    server: "Emby" as const,
    async start() {
      const started = await startFakeEmby({ libraries: [LIBRARY] });
      const api = new EmbyApiClient({ baseUrl: started.url, token: started.token, urlKey: "U", tokenKey: "T", timeoutMs: 5_000 });
      // Emby's library id is its media folder's ("3"), which the virtual folders list under ItemId and Id.
      return { started, api, libraryId: "3" };
    },
  },
];

async function setUp(kind: (typeof KINDS)[number]) {
  const { started, api, libraryId } = await kind.start();
  fake = started;
  const clock = new ManualClock(Date.now());
  started.scans.timing = { ms: 5_000, now: () => clock.now() };
  const afterScan = createMediaBrowserAfterScan(api, confirmSettingsOf({}, kind.server), clock);
  const library = { id: libraryId, locations: ["/media/TV"] };
  return { fake: started, api, afterScan, clock, library };
}

describe.each(KINDS)("$server's after-scan capability", (kind) => {
  it("is on by default, polls every 10 s and re-scans after 120 s, naming the server", async () => {
    const { afterScan } = await setUp(kind);
    expect(afterScan.settings).toMatchObject({
      confirm: { pollMs: 10_000, maxWaitMs: 1_800_000, rescanDelayMs: 120_000, confirmFiles: true, server: kind.server },
      waitsForSection: true,
      analyzes: false,
      trash: { enabled: false },
    });
    expect(confirmSettingsOf({ CONFIRM_SCANS: false, CONFIRM_POLL_INTERVAL: 3 }, kind.server)).toMatchObject({
      confirm: { pollMs: 3_000, confirmFiles: false },
      waitsForSection: false,
    });
  });

  it("shows the library scanning while a reported scan runs in it, and while the library scan task runs", async () => {
    const { fake, api, afterScan, clock, library } = await setUp(kind);
    const refreshing = async () => (await afterScan.listLibraryStates()).map((l) => [l.id, l.refreshing]);
    expect(await refreshing()).toEqual([[library.id, false]]);
    await api.mediaUpdated([{ path: EPISODE, updateType: "Created" }]);
    // Under way from the report (no monitor delay here) for the scan's 5 s, its library "Active" meanwhile.
    expect(await refreshing()).toEqual([[library.id, true]]);
    clock.advance(4_999);
    expect(await refreshing()).toEqual([[library.id, true]]);
    clock.advance(1);
    expect(await refreshing()).toEqual([[library.id, false]]);
    fake.scans.libraryScanRunning = true;
    expect(await refreshing()).toEqual([[library.id, true]]);
  });

  it("finds a new file, a sidecar's video and a deleted file's absence, each file once", async () => {
    const { fake, afterScan, library } = await setUp(kind);
    for (let i = 0; i < 5; i += 1) fake.addItem(`/media/TV/Other/Season 1/Other - S01E0${i}.mkv`);
    const id = fake.addItem(EPISODE);
    const sidecar = EPISODE.replace(/\.mkv$/, ".en.srt");
    const gone = "/media/TV/Show/Season 1/Show - S01E02.mkv";
    const { found } = await afterScan.findFiles([{ library, files: [EPISODE, sidecar, gone] }]);
    expect(found).toEqual([
      new Map([
        [EPISODE, [{ file: EPISODE, ratingKey: id }]],
        [sidecar, [{ file: EPISODE, ratingKey: id, named: sidecar }]],
      ]),
    ]);
    if (kind.server === "Emby") expect(fake.items.pathLookups).toEqual([EPISODE, gone]);
    // The files newest first: one page settles the sidecar (and, on Jellyfin, everything).
    expect(fake.items.listings).toEqual([0]);
  });

  it("reads the newest page on every poll, and the whole library again only once its listing is a minute old", async () => {
    const { fake, afterScan, clock, library } = await setUp(kind);
    // Held long before the scan: the last of 1,500 files newest first, on the second page.
    const old = fake.addItem(EPISODE);
    for (let i = 0; i < 1_500; i += 1) fake.addItem(`/media/TV/Other/Season ${i}/Other - S${i}E01.mkv`);
    const missing = "/media/TV/Show/Season 1/Show - S01E03.en.srt";
    const ask = async () => (await afterScan.findFiles([{ library, files: [EPISODE, missing] }])).found[0];
    expect(await ask()).toEqual(new Map([[EPISODE, [expect.objectContaining({ ratingKey: old })]]]));
    expect(fake.items.listings).toEqual([0, 1_000]);
    // Within the minute: the newest page, then the kept listing.
    clock.advance(LISTING_TTL_MS - 1);
    expect((await ask())?.has(EPISODE)).toBe(true);
    expect(fake.items.listings).toEqual([0, 1_000, 0]);
    clock.advance(1);
    expect((await ask())?.has(EPISODE)).toBe(true);
    expect(fake.items.listings).toEqual([0, 1_000, 0, 0, 1_000]);
  });

  it("refreshes each confirmed item once, and has nothing to analyze or empty", async () => {
    const { fake, afterScan } = await setUp(kind);
    const id = fake.addItem(EPISODE);
    const calls = afterScan.refreshCalls(
      [
        { file: EPISODE, ratingKey: id },
        { file: EPISODE, ratingKey: id, named: "x.srt" },
      ],
      new Set(),
    );
    expect(calls.map((c) => [c.kind, c.keys])).toEqual([["refreshed", [id]]]);
    for (const call of calls) await call.run();
    expect(fake.items.refreshes.map((r) => r.id)).toEqual([id]);
    expect(afterScan.analyzeCalls([{ file: EPISODE, ratingKey: id }])).toEqual([]);
  });
});
