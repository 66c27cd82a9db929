import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetUnavailableError, type Library } from "../../../src/domain.js";
import { ManualClock } from "../../../src/lib/clock.js";
import { EmbyApiClient } from "../../../src/targets/emby/api.js";
import { EmbyTarget } from "../../../src/targets/emby/emby-target.js";
import { startFakeEmby, type FakeEmby } from "../../fakes/emby.js";
import { allowViolations } from "../../fakes/spec/violations.js";

/** Answers come well within this; only the hang tests wait it out. */
const TIMEOUT_MS = 5_000;
const SHORT_TIMEOUT_MS = 300;
let emby: FakeEmby;

beforeEach(async () => {
  // A key Emby does not let refresh items: a scan goes through Media/Updated (the folder refresh: media-browser-folder-scan.test.ts).
  emby = await startFakeEmby({ refreshForbidden: true });
});

afterEach(async () => {
  await emby.close();
});

function client(options: { token?: string; baseUrl?: string; timeoutMs?: number } = {}): EmbyApiClient {
  return new EmbyApiClient({
    baseUrl: options.baseUrl ?? emby.url,
    token: options.token ?? emby.token,
    urlKey: "TARGETS[1].URL",
    tokenKey: "TARGETS[1].TOKEN",
    timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
  });
}

function target(api = client()): EmbyTarget {
  return new EmbyTarget({ name: "emby", api, clock: new ManualClock() });
}

describe("Emby libraries", () => {
  it("lists the selectable media folders with their sub-folder paths", async () => {
    emby.setLibraries([{ name: "TV", id: "g1", locations: ["/media/TV", "/mnt/more/TV"] }]);
    expect(await client().listLibraries()).toEqual([{ id: "3", title: "TV", type: "unknown", locations: ["/media/TV", "/mnt/more/TV"] }]);
  });

  it("calls the API under /emby with the key in the X-Emby-Token header", async () => {
    await client().listLibraries();
    expect(emby.requests).toEqual([{ method: "GET", url: "/emby/Library/SelectableMediaFolders", underEmby: true, tokenIn: "header" }]);
  });

  it("does not add a second /emby when the URL already ends with it", async () => {
    await client({ baseUrl: `${emby.url}/emby/` }).listLibraries();
    expect(emby.requests[0]?.url).toBe("/emby/Library/SelectableMediaFolders");
  });

  it("turns a refused key into TargetAuthError without the key in the message", async () => {
    const error = await client({ token: "wrong-emby-key" })
      .listLibraries()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetAuthError);
    expect((error as Error).message).not.toContain("wrong-emby-key");
    expect((error as Error).message).toContain("TARGETS[1].TOKEN");
  });

  it("reports 503, refused connections and a hang as unavailable", async () => {
    for (const availability of ["down", "refuse", "hang"] as const) {
      await emby.setAvailability(availability);
      await expect(client({ timeoutMs: SHORT_TIMEOUT_MS }).listLibraries(), availability).rejects.toBeInstanceOf(TargetUnavailableError);
    }
  });
});

describe("Emby scans through Media/Updated, with a key that may not refresh items", () => {
  const movies: Library = { id: "3", title: "Movies", type: "unknown", locations: ["/media/Movies"] };

  it("reports the folder as Created when no files were named", async () => {
    await target().scan("/media/Movies/Heat (1995)", movies);
    expect(emby.mediaUpdates).toEqual([[{ path: "/media/Movies/Heat (1995)", updateType: "Created" }]]);
  });

  it("reports the named files instead of the folder", async () => {
    await target().scan("/media/Movies/Heat (1995)", movies, ["/media/Movies/Heat (1995)/Heat.mkv"]);
    expect(emby.mediaUpdates).toEqual([[{ path: "/media/Movies/Heat (1995)/Heat.mkv", updateType: "Created" }]]);
  });

  it("accepts 204 as well as 200 for success", async () => {
    // The description lists only 200; scanarr takes any 2xx, so a server answering otherwise is no failure.
    allowViolations(/Media\/Updated.*answers 204/);
    const other = await startFakeEmby({ successStatus: 204, refreshForbidden: true });
    try {
      const api = new EmbyApiClient({ baseUrl: other.url, token: other.token, urlKey: "URL", tokenKey: "TOKEN" });
      await target(api).scan("/media/Movies/X", movies);
      expect(other.mediaUpdates).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it("turns a hung scan into TargetUnavailableError within the time-out", async () => {
    await emby.setAvailability("hang");
    await expect(target(client({ timeoutMs: SHORT_TIMEOUT_MS })).scan("/media/Movies/X", movies)).rejects.toThrow(
      `did not answer within ${SHORT_TIMEOUT_MS} ms`,
    );
  });

  it("turns a refused key on a scan into TargetAuthError", async () => {
    await expect(target(client({ token: "nope-nope" })).scan("/media/Movies/X", movies)).rejects.toBeInstanceOf(TargetAuthError);
    expect(emby.mediaUpdates).toEqual([]);
  });
});
