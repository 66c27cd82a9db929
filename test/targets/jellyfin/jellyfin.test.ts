import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetFatalError, TargetUnavailableError, type Library } from "../../../src/domain.js";
import { ManualClock } from "../../../src/lib/clock.js";
import { JellyfinApiClient } from "../../../src/targets/jellyfin/api.js";
import { JellyfinTarget } from "../../../src/targets/jellyfin/jellyfin-target.js";
import { startFakeJellyfin, type FakeJellyfin } from "../../fakes/jellyfin.js";
import { allowViolations } from "../../fakes/spec/violations.js";

/** Answers come well within this; only the hang tests wait it out. */
const TIMEOUT_MS = 5_000;
const SHORT_TIMEOUT_MS = 300;
let jellyfin: FakeJellyfin;

beforeEach(async () => {
  jellyfin = await startFakeJellyfin();
});

afterEach(async () => {
  await jellyfin.close();
});

function client(token = jellyfin.token, baseUrl = jellyfin.url, timeoutMs = TIMEOUT_MS): JellyfinApiClient {
  return new JellyfinApiClient({ baseUrl, token, urlKey: "TARGETS[0].URL", tokenKey: "TARGETS[0].TOKEN", timeoutMs });
}

function target(api = client()): JellyfinTarget {
  return new JellyfinTarget({ name: "jellyfin", api, clock: new ManualClock() });
}

async function shows(t: JellyfinTarget): Promise<Library> {
  const libraries = await t.listLibraries();
  return libraries.find((l) => l.title === "Shows") as Library;
}

describe("Jellyfin libraries", () => {
  it("lists the virtual folders with their locations, id and collection type", async () => {
    jellyfin.setLibraries([
      { name: "Shows", id: "abc", collectionType: "tvshows", locations: ["/media/TV", "/media/TV2"] },
      { name: "Mixed", id: "def", locations: ["/media/Home"] },
    ]);
    expect(await client().listLibraries()).toEqual([
      { id: "abc", title: "Shows", type: "tvshows", locations: ["/media/TV", "/media/TV2"] },
      { id: "def", title: "Mixed", type: "mixed", locations: ["/media/Home"] },
    ]);
  });

  it("authenticates with the MediaBrowser Authorization header only, never in the URL", async () => {
    await client().listLibraries();
    expect(jellyfin.requests).toEqual([{ method: "GET", url: "/Library/VirtualFolders", auth: "authorization" }]);
  });

  it("keeps a reverse-proxy sub-path of the URL", async () => {
    // The fake has no proxy in front: the sub-path reaches it, which answers 404 as Jellyfin would.
    allowViolations(/GET \/jf\/Library\/VirtualFolders/);
    await expect(client(jellyfin.token, `${jellyfin.url}/jf/`).listLibraries()).rejects.toBeInstanceOf(TargetUnavailableError);
    expect(jellyfin.requests[0]?.url).toBe("/jf/Library/VirtualFolders");
  });

  it("turns a refused key into TargetAuthError naming the config key, without the key", async () => {
    const error = await client("wrong-key-0000")
      .listLibraries()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetAuthError);
    expect((error as Error).message).toContain("401");
    expect((error as Error).message).toContain("TARGETS[0].TOKEN");
    expect((error as Error).message).not.toContain("wrong-key-0000");
  });

  it("turns a non-admin user's 403 on the library list into TargetAuthError", async () => {
    await expect(client(jellyfin.userToken).listLibraries()).rejects.toBeInstanceOf(TargetAuthError);
  });

  it("reports a server answering 503 as unavailable", async () => {
    await jellyfin.setAvailability("down");
    await expect(client().listLibraries()).rejects.toThrow(/answered 503/);
  });

  it("reports refused connections as unavailable", async () => {
    await jellyfin.setAvailability("refuse");
    const error = await client()
      .listLibraries()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetUnavailableError);
    expect((error as Error).message).toContain("unreachable (ECONNREFUSED)");
  });

  it("gives up on a server that never answers after the configured time-out", async () => {
    await jellyfin.setAvailability("hang");
    const started = performance.now();
    const error = await client(jellyfin.token, jellyfin.url, SHORT_TIMEOUT_MS)
      .listLibraries()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetUnavailableError);
    expect((error as Error).message).toContain(`did not answer within ${SHORT_TIMEOUT_MS} ms`);
    // Bounded by the time-out, not by the server: far below the 30 s default.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("Jellyfin scans through Media/Updated, with a key that may not refresh items (a plain user's)", () => {
  /** A target with the user's token, and the Shows library as the API key lists it (a user may not). */
  async function userTarget(): Promise<{ t: JellyfinTarget; library: Library }> {
    return { t: target(client(jellyfin.userToken)), library: await shows(target()) };
  }

  it("reports the folder when the request named no files, and Jellyfin answers 204", async () => {
    const { t, library } = await userTarget();
    await t.scan("/media/TV-Shows/Show/Season 1", library);
    expect(jellyfin.mediaUpdates).toEqual([[{ path: "/media/TV-Shows/Show/Season 1", updateType: "Modified" }]]);
  });

  it("reports the named files instead of the folder, in one call", async () => {
    const { t, library } = await userTarget();
    const files = ["/media/TV-Shows/Show/Season 1/S01E01.mkv", "/media/TV-Shows/Show/Season 1/S01E02.mkv"];
    await t.scan("/media/TV-Shows/Show/Season 1", library, files);
    expect(jellyfin.mediaUpdates).toEqual([files.map((path) => ({ path, updateType: "Modified" }))]);
  });

  it("reports the folder when the request's file list is empty", async () => {
    const { t, library } = await userTarget();
    await t.scan("/media/TV-Shows/Show", library, []);
    expect(jellyfin.mediaUpdates).toEqual([[{ path: "/media/TV-Shows/Show", updateType: "Modified" }]]);
  });

  it("turns a refused key on a scan into TargetAuthError and sends nothing", async () => {
    const library = await shows(target());
    await expect(target(client("bad-key-1234")).scan("/media/TV-Shows/Show", library)).rejects.toBeInstanceOf(TargetAuthError);
    expect(jellyfin.mediaUpdates).toEqual([]);
  });

  it("turns a hung scan into TargetUnavailableError within the time-out", async () => {
    const library = await shows(target());
    const t = target(client(jellyfin.token, jellyfin.url, SHORT_TIMEOUT_MS));
    await jellyfin.setAvailability("hang");
    await expect(t.scan("/media/TV-Shows/Show", library)).rejects.toThrow(`did not answer within ${SHORT_TIMEOUT_MS} ms`);
  });

  it("refetches the libraries after a scan failed because the server was down", async () => {
    const t = target();
    const library = await shows(t);
    await jellyfin.setAvailability("down");
    await expect(t.scan("/media/TV-Shows/Show", library)).rejects.toBeInstanceOf(TargetUnavailableError);
    await jellyfin.setAvailability("up");
    const before = jellyfin.requests.filter((r) => r.url === "/Library/VirtualFolders").length;
    await t.listLibraries();
    expect(jellyfin.requests.filter((r) => r.url === "/Library/VirtualFolders").length).toBe(before + 1);
  });

  it("calls a 400 from the server fatal: the same request would fail again", async () => {
    const api = client();
    await expect(api.mediaUpdated([{ path: "", updateType: "Modified" }])).rejects.toBeInstanceOf(TargetFatalError);
  });
});
