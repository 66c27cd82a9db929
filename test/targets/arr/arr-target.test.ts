import { afterEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetFatalError, TargetNothingToDoError, type Library } from "../../../src/domain.js";
import { ManualClock } from "../../../src/lib/clock.js";
import { ArrClient, type ArrTargetApp } from "../../../src/targets/arr/client.js";
import { ITEM_LIST_MAX_AGE_MS, ITEM_LIST_MISS_REFETCH_MS } from "../../../src/targets/arr/items.js";
import { ArrTarget } from "../../../src/targets/arr/target.js";
import { RADARR } from "../../../src/targets/arr/radarr.js";
import { SONARR } from "../../../src/targets/arr/sonarr.js";
import { startFakeArrTarget, type ArrKind, type FakeArrItem, type FakeArrTarget } from "../../fakes/arr-target.js";

const servers: FakeArrTarget[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

const SERIES: FakeArrItem[] = [
  { id: 3, title: "Severance", path: "/tv/Severance" },
  { id: 4, title: "Severance 2", path: "/tv/Severance 2" },
  { id: 9, title: "Andor", path: "/tv/Andor" },
];
const MOVIES: FakeArrItem[] = [{ id: 12, title: "Heat", path: "/movies/Heat (1995)" }];

async function app(kind: ArrKind, items: FakeArrItem[], rootFolders: string[]): Promise<FakeArrTarget> {
  const server = await startFakeArrTarget({ kind, items, rootFolders });
  servers.push(server);
  return server;
}

function target(server: FakeArrTarget, appOf: ArrTargetApp, options: { apiKey?: string; clock?: ManualClock } = {}) {
  const api = new ArrClient({
    app: appOf,
    baseUrl: server.url,
    apiKey: options.apiKey ?? server.apiKey,
    urlKey: "TARGETS[2].URL",
    credentialKey: "TARGETS[2].TOKEN",
    timeoutMs: 5_000,
  });
  return new ArrTarget({ name: appOf.kind, api, clock: options.clock ?? new ManualClock() });
}

const anyLibrary: Library = { id: "root-1", title: "/tv", type: "rootfolder", locations: ["/tv"] };

describe("the Sonarr and Radarr targets", () => {
  it("have the app's root folders as their libraries", async () => {
    const server = await app("sonarr", SERIES, ["/tv", "/anime"]);
    expect(await target(server, SONARR).listLibraries()).toEqual([
      { id: "root-1", title: "/tv", type: "rootfolder", locations: ["/tv"] },
      { id: "root-2", title: "/anime", type: "rootfolder", locations: ["/anime"] },
    ]);
  });

  it("rescan the series holding the folder, matched by whole path components", async () => {
    const server = await app("sonarr", SERIES, ["/tv"]);
    const sonarr = target(server, SONARR);
    await sonarr.scan("/tv/Severance/Season 1", anyLibrary, ["/tv/Severance/Season 1/Severance - S01E01.mkv"]);
    await sonarr.scan("/tv/Severance 2", anyLibrary);
    expect(server.commands).toEqual([
      { name: "RescanSeries", seriesId: 3 },
      { name: "RescanSeries", seriesId: 4 },
    ]);
  });

  it("rescan the movie holding the folder (Radarr's RescanMovie)", async () => {
    const server = await app("radarr", MOVIES, ["/movies"]);
    await target(server, RADARR).scan("/movies/Heat (1995)", anyLibrary, ["/movies/Heat (1995)/Heat.mkv"]);
    expect(server.commands).toEqual([{ name: "RescanMovie", movieId: 12 }]);
  });

  it("say there is nothing to do for a folder no series holds, without a command", async () => {
    const server = await app("sonarr", SERIES, ["/tv"]);
    const error = await target(server, SONARR)
      .scan("/tv/Unknown Show", anyLibrary)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetNothingToDoError);
    expect(String(error)).toContain("no series of Sonarr holds /tv/Unknown Show; nothing to rescan");
    // The root folder holds several series but is none of them: not a rescan of everything either.
    await expect(target(server, SONARR).scan("/tv", anyLibrary)).rejects.toBeInstanceOf(TargetNothingToDoError);
    expect(server.commands).toEqual([]);
  });

  it("fetch the list once for a batch of deliveries, again for the next batch or a miss on an old list", async () => {
    const server = await app("sonarr", SERIES, ["/tv"]);
    const clock = new ManualClock();
    const sonarr = target(server, SONARR, { clock });
    await Promise.all(["/tv/Severance/Season 1", "/tv/Severance/Season 2", "/tv/Severance 2"].map((f) => sonarr.scan(f, anyLibrary)));
    expect(server.itemListFetches).toBe(1);

    server.setItems([...SERIES, { id: 20, title: "Pluribus", path: "/tv/Pluribus" }]);
    // A miss right after a fetch is not worth another one (that series is not in the app).
    await expect(sonarr.scan("/tv/Pluribus", anyLibrary)).rejects.toBeInstanceOf(TargetNothingToDoError);
    expect(server.itemListFetches).toBe(1);
    // A little later, a miss refetches: the series was added since.
    clock.advance(ITEM_LIST_MISS_REFETCH_MS + 1);
    await sonarr.scan("/tv/Pluribus", anyLibrary);
    expect(server.itemListFetches).toBe(2);
    // The next batch gets a fresh list.
    clock.advance(ITEM_LIST_MAX_AGE_MS + 1);
    await sonarr.scan("/tv/Severance", anyLibrary);
    expect(server.itemListFetches).toBe(3);
    expect(server.commands.map((c) => c.seriesId)).toEqual([3, 3, 4, 20, 3]);
  });

  it("prove the app and the key for doctor, and refuse the other app's URL", async () => {
    const sonarr = await app("sonarr", SERIES, ["/tv"]);
    await expect(target(sonarr, SONARR).checkAccess()).resolves.toBe("Sonarr 4.0.15.2941 takes the API key");
    const error = await target(sonarr, RADARR)
      .checkAccess()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetFatalError);
    expect(String(error)).toContain("is Sonarr, not Radarr; check the URL and TYPE");
  });

  it("stop on a wrong API key, naming the key to check and never the key", async () => {
    const server = await app("radarr", MOVIES, ["/movies"]);
    const error = await target(server, RADARR, { apiKey: "wrong-key-0000" })
      .scan("/movies/Heat (1995)", anyLibrary)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetAuthError);
    expect(String(error)).toContain("TARGETS[2].TOKEN");
    expect(String(error)).not.toContain("wrong-key-0000");
    expect(server.commands).toEqual([]);
  });
});
