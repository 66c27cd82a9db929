import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetUnavailableError, type Library } from "../../../src/domain.js";
import { ManualClock } from "../../../src/lib/clock.js";
import { JellyfinApiClient } from "../../../src/targets/jellyfin/api.js";
import { JellyfinTarget } from "../../../src/targets/jellyfin/jellyfin-target.js";
import { startFakeJellyfin, type FakeJellyfin } from "../../fakes/jellyfin.js";

// The fake's Shows library (its ItemId), which holds no items: a folder refresh goes to the library's own item.
const SHOWS: Library = { id: "a656b907eb3a73532e40e44b968d0225", title: "Shows", type: "tvshows", locations: ["/media/TV-Shows"] };
const SEASON = "/media/TV-Shows/Show/Season 1";
const E1 = `${SEASON}/S01E01.mkv`;
const E2 = `${SEASON}/S01E02.mkv`;

let jellyfin: FakeJellyfin;
let target: JellyfinTarget;

beforeEach(async () => {
  jellyfin = await startFakeJellyfin({ plugin: true });
  target = makeTarget(jellyfin.token);
});

afterEach(async () => {
  await jellyfin.close();
});

/** Answers come well within the time-out; the hang test waits it out once. */
const TIMEOUT_MS = 1_500;

function makeTarget(token: string): JellyfinTarget {
  const api = new JellyfinApiClient({ baseUrl: jellyfin.url, token, urlKey: "URL", tokenKey: "TOKEN", timeoutMs: TIMEOUT_MS });
  return new JellyfinTarget({ name: "jellyfin", api, clock: new ManualClock() });
}

/** The plugin probe is a ScanPath call with an empty Path (the plugin answers 400 and scans nothing). */
const probes = (): number => jellyfin.scanPathCalls.filter((path) => path === "").length;
/** The folders whose items were refreshed, in order. */
const refreshed = (): string[] => jellyfin.items.refreshes.map((r) => r.path);

describe("the targeted-scans plugin", () => {
  it("is detected once and then used for every named file, with no folder refresh and no Media/Updated", async () => {
    await target.scan(SEASON, SHOWS, [E1, E2]);
    await target.scan(SEASON, SHOWS);
    expect(target.pluginState()).toBe("present");
    expect(jellyfin.scanPaths).toEqual([E1, E2, SEASON]);
    expect(refreshed()).toEqual([]);
    expect(jellyfin.mediaUpdates).toEqual([]);
    expect(probes()).toBe(1);
  });

  it("is found absent on a stock server, whose known folder is then refreshed without a second probe", async () => {
    jellyfin.setPlugin(false);
    jellyfin.addItem(`${SEASON}/S01E00.mkv`);
    await target.scan(SEASON, SHOWS, [E1]);
    await target.scan(SEASON, SHOWS);
    expect(target.pluginState()).toBe("absent");
    expect(refreshed()).toEqual([SEASON, SEASON]);
    expect(jellyfin.mediaUpdates).toEqual([]);
    expect(jellyfin.requests.filter((r) => r.url === "/Library/ScanPath")).toHaveLength(1);
  });

  it("refreshes the folder for paths the plugin cannot place and keeps using the plugin", async () => {
    jellyfin.setScanPathStatus(E2, "PathNotFound");
    await target.scan(SEASON, SHOWS, [E1, E2]);
    expect(jellyfin.scanPaths).toEqual([E1]);
    expect(refreshed()).toEqual(["/media/TV-Shows"]);
    expect(target.pluginState()).toBe("present");
  });

  it("refreshes the folder for the rest when the plugin fails, and probes again next time", async () => {
    jellyfin.setScanPathStatus(E2, "Failed");
    await target.scan(SEASON, SHOWS, [E1, E2]);
    expect(jellyfin.scanPaths).toEqual([E1]);
    expect(refreshed()).toEqual(["/media/TV-Shows"]);
    expect(target.pluginState()).toBe("unknown");
    await target.scan(SEASON, SHOWS);
    expect(target.pluginState()).toBe("present");
    expect(probes()).toBe(2);
  });

  it("notices the plugin was removed (a bare 404) and falls back in the same scan", async () => {
    await target.scan(SEASON, SHOWS, [E1]);
    jellyfin.setPlugin(false);
    await target.scan(SEASON, SHOWS, [E2]);
    expect(refreshed()).toEqual(["/media/TV-Shows"]);
    await target.scan(SEASON, SHOWS);
    expect(target.pluginState()).toBe("absent");
  });

  it("re-checks after a scan failed, and finds a plugin installed meanwhile", async () => {
    jellyfin.setPlugin(false);
    await target.scan(SEASON, SHOWS);
    await jellyfin.setAvailability("down");
    await expect(target.scan(SEASON, SHOWS)).rejects.toBeInstanceOf(TargetUnavailableError);
    expect(target.pluginState()).toBe("unknown");
    jellyfin.setPlugin(true);
    await jellyfin.setAvailability("up");
    await target.scan(SEASON, SHOWS, [E1]);
    expect(jellyfin.scanPaths).toEqual([E1]);
  });

  it("stops on a refused key instead of falling back", async () => {
    const bad = makeTarget("not-the-key-1234");
    await expect(bad.scan(SEASON, SHOWS, [E1])).rejects.toBeInstanceOf(TargetAuthError);
    expect(jellyfin.scanPaths).toEqual([]);
    expect(jellyfin.mediaUpdates).toEqual([]);
  });

  it("times out a hung plugin call once, without waiting on the folder's lookup or Media/Updated too, and probes again on the retry", async () => {
    await target.scan(SEASON, SHOWS, [E1]);
    await jellyfin.setAvailability("hang");
    await expect(target.scan(SEASON, SHOWS, [E2])).rejects.toThrow(`did not answer within ${TIMEOUT_MS} ms`);
    expect(target.pluginState()).toBe("unknown");
    expect(jellyfin.requests.filter((r) => r.url === "/Library/Media/Updated" || r.url.startsWith("/Items"))).toEqual([]);
    await jellyfin.setAvailability("up");
    await target.scan(SEASON, SHOWS, [E2]);
    expect(jellyfin.scanPaths).toEqual([E1, E2]);
    expect(probes()).toBe(2);
  });

  it("fails at once when the server refuses connections during the probe", async () => {
    await jellyfin.setAvailability("refuse");
    await expect(target.scan(SEASON, SHOWS)).rejects.toThrow("unreachable (ECONNREFUSED)");
    await jellyfin.setAvailability("up");
    expect(jellyfin.requests).toEqual([]);
    expect(target.pluginState()).toBe("unknown");
  });

  it("goes on to the folder's lookup, then Media/Updated, when the probe and the lookup get a server error", async () => {
    await jellyfin.setAvailability("down");
    await expect(target.scan(SEASON, SHOWS)).rejects.toThrow("answered 503");
    expect(jellyfin.requests.map((r) => r.url.split("?")[0])).toEqual(["/Library/ScanPath", "/Items", "/Library/Media/Updated"]);
  });
});
