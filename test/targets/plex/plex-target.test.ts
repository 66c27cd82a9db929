import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultConfig } from "../../../src/config/defaults.js";
import { TargetAuthError, TargetUnavailableError, type Library } from "../../../src/domain.js";
import { ManualClock } from "../../../src/lib/clock.js";
import { createLogger } from "../../../src/lib/logger.js";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import { withPlexEntry } from "../../../src/config/plex-entry.js";
import { buildTargets } from "../../../src/targets/build-targets.js";
import { silentLogger } from "../../../src/lib/logger.js";
import { PlexTarget } from "../../../src/targets/plex/plex-target.js";
import { startFakePlex, type FakePlex, type FakeSection } from "../../fakes/plex.js";

const MOVIES: FakeSection = { key: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] };
const TV: FakeSection = { key: "2", title: "TV Shows", type: "show", locations: ["/data/TV"] };
const TV_4K: FakeSection = { key: "3", title: "TV 4K", type: "show", locations: ["/data/TV/4K"] };
const TTL = 60_000;
const MISS = 10_000;

let plex: FakePlex;
let clock: ManualClock;
let target: PlexTarget;

beforeEach(async () => {
  plex = await startFakePlex({ sections: [MOVIES, TV] });
  clock = new ManualClock();
  const api = new PlexApiClient({ baseUrl: plex.url, token: plex.token, timeoutMs: 2_000 });
  target = new PlexTarget({ api, clock, ttlMs: TTL, missRefetchMs: MISS });
});

afterEach(async () => {
  target.stop();
  await plex.close();
});

const sectionFetches = (): number => plex.requests.filter((r) => r.url === "/library/sections").length;
const ids = (libraries: Library[]): string[] => libraries.map((l) => l.id);

describe("PlexTarget library cache", () => {
  it("knows no libraries until a fetch succeeded, then the fetched ones", async () => {
    expect(target.knownLibraries()).toBeUndefined();
    await target.listLibraries();
    expect(ids(target.knownLibraries() ?? [])).toEqual(["1", "2"]);
  });

  it("asks Plex once while the list is fresh and again once the TTL has passed", async () => {
    await target.listLibraries();
    clock.advance(TTL - 1);
    await target.listLibraries();
    expect(sectionFetches()).toBe(1);
    clock.advance(1);
    await target.listLibraries();
    expect(sectionFetches()).toBe(2);
  });

  it("shares one request between callers that ask at the same time", async () => {
    const lists = await Promise.all([target.listLibraries(), target.listLibraries(), target.refreshLibraries()]);
    expect(lists.map(ids)).toEqual([
      ["1", "2"],
      ["1", "2"],
      ["1", "2"],
    ]);
    expect(sectionFetches()).toBe(1);
  });

  it("throws the client's error when Plex cannot be asked and nothing is cached", async () => {
    plex.setMode(401);
    await expect(target.listLibraries()).rejects.toBeInstanceOf(TargetAuthError);
    expect(target.knownLibraries()).toBeUndefined();
  });

  it("keeps the last known list when a later fetch fails", async () => {
    await target.listLibraries();
    plex.setMode(503);
    await expect(target.refreshLibraries()).rejects.toBeInstanceOf(TargetUnavailableError);
    expect(ids(target.knownLibraries() ?? [])).toEqual(["1", "2"]);
  });
});

describe("PlexTarget.librariesFor", () => {
  it("returns every library holding the folder, the longest location first", async () => {
    plex.setSections([MOVIES, TV, TV_4K]);
    expect(ids(await target.librariesFor("/data/TV/4K/Show/Season 1"))).toEqual(["3", "2"]);
    expect(ids(await target.librariesFor("/data/TV/Show/Season 1"))).toEqual(["2"]);
  });

  it("refetches on a miss and finds a library added in Plex since the last fetch", async () => {
    await target.listLibraries();
    clock.advance(MISS);
    plex.setSections([MOVIES, TV, { key: "8", title: "Anime", type: "show", locations: ["/data/Anime"] }]);
    expect(ids(await target.librariesFor("/data/Anime/Show"))).toEqual(["8"]);
    expect(sectionFetches()).toBe(2);
  });

  it("does not refetch for misses that come sooner than the miss interval", async () => {
    await target.librariesFor("/elsewhere/a");
    await target.librariesFor("/elsewhere/b");
    clock.advance(MISS - 1);
    expect(await target.librariesFor("/elsewhere/c")).toEqual([]);
    expect(sectionFetches()).toBe(1);
    clock.advance(1);
    await target.librariesFor("/elsewhere/d");
    expect(sectionFetches()).toBe(2);
  });

  it("answers from the last known list when Plex is down", async () => {
    await target.listLibraries();
    plex.setMode(503);
    clock.advance(TTL);
    expect(ids(await target.librariesFor("/data/Movies/X (2000)"))).toEqual(["1"]);
    expect(await target.librariesFor("/nowhere")).toEqual([]);
  });

  it("throws when Plex is down and no list was ever fetched", async () => {
    plex.setMode(503);
    await expect(target.librariesFor("/data/Movies/X")).rejects.toBeInstanceOf(TargetUnavailableError);
  });
});

describe("PlexTarget.scan", () => {
  it("asks Plex to scan the folder in the library's section", async () => {
    const [movies] = await target.listLibraries();
    await target.scan("/data/Movies/Heat (1995)", movies as Library);
    expect(plex.refreshes).toEqual([{ sectionId: "1", path: "/data/Movies/Heat (1995)" }]);
  });

  it("rethrows a stale section's 404 and refetches the libraries before the next use", async () => {
    const libraries = await target.listLibraries();
    plex.setSections([MOVIES]);
    const tv = libraries[1] as Library;
    await expect(target.scan("/data/TV/Show", tv)).rejects.toBeInstanceOf(TargetUnavailableError);
    expect(ids(await target.listLibraries())).toEqual(["1"]);
    expect(sectionFetches()).toBe(2);
  });

  it("rethrows TargetAuthError when the token is not an admin's", async () => {
    const [movies] = await target.listLibraries();
    plex.setMode(403, "refresh");
    await expect(target.scan("/data/Movies/X", movies as Library)).rejects.toBeInstanceOf(TargetAuthError);
    expect(plex.refreshes).toEqual([]);
  });
});

describe("PlexTarget background refresh", () => {
  it("fetches on start, every TTL after, and never again after stop", async () => {
    target.start();
    await vi.waitFor(() => expect(sectionFetches()).toBe(1));
    clock.advance(TTL);
    await vi.waitFor(() => expect(sectionFetches()).toBe(2));
    target.stop();
    expect(clock.pending).toBe(0);
    clock.advance(TTL * 3);
    expect(clock.pending).toBe(0);
    expect(sectionFetches()).toBe(2);
  });

  it("keeps going when a fetch fails, and logs why without the token", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ format: "json", level: "warn", destination });
    const api = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
    const logged = new PlexTarget({ api, clock, ttlMs: TTL, logger });
    plex.setMode(500);
    logged.start();
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toContain("500");
    expect(lines[0]).not.toContain(plex.token);
    plex.setMode("ok");
    clock.advance(TTL);
    await vi.waitFor(() => expect(logged.knownLibraries()).toHaveLength(2));
    logged.stop();
  });
});

describe("the Plex target of the flat keys", () => {
  it("builds a working target from PLEX_LOCAL_URL and PLEX_TOKEN", async () => {
    const config = { ...defaultConfig("a".repeat(32)), PLEX_LOCAL_URL: plex.url, PLEX_TOKEN: plex.token };
    const built = (await buildTargets(withPlexEntry(config), { clock, logger: silentLogger() }))[0]?.target as PlexTarget;
    expect(built.name).toBe("plex");
    const [tv] = await built.librariesFor("/data/TV/Show/Season 2");
    await built.scan("/data/TV/Show/Season 2", tv as Library);
    expect(plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV/Show/Season 2" }]);
  });
});
