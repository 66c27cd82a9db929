import { describe, expect, it, vi } from "vitest";
import { TargetUnavailableError, type Library } from "../../src/domain.js";
import { ManualClock } from "../../src/lib/clock.js";
import { LibraryCache } from "../../src/targets/library-cache.js";

const TV: Library = { id: "1", title: "TV", type: "show", locations: ["/data/TV"] };
const ANIME: Library = { id: "2", title: "Anime", type: "show", locations: ["/data/Anime"] };

/** A media server's library list that the test changes and can make fail; counts the fetches. */
function server(initial: Library[]) {
  const state = { libraries: initial, failing: false, fetches: 0 };
  const fetch = async (): Promise<Library[]> => {
    state.fetches += 1;
    if (state.failing) throw new TargetUnavailableError("down");
    return state.libraries;
  };
  return { state, fetch };
}

function cache(fetch: () => Promise<Library[]>, extra: { initial?: Library[] } = {}) {
  const clock = new ManualClock();
  return { clock, cache: new LibraryCache({ fetch, name: "t", clock, ttlMs: 60_000, missRefetchMs: 10_000, ...extra }) };
}

describe("LibraryCache", () => {
  it("refreshLibraries() refetches at most once per miss interval and never throws", async () => {
    const s = server([TV]);
    const { cache: c, clock } = cache(s.fetch);
    await c.refreshLibraries();
    await c.refreshLibraries();
    expect(s.state.fetches).toBe(1);
    clock.advance(10_000);
    s.state.failing = true;
    await expect(c.refreshLibraries()).resolves.toBeUndefined();
    expect(s.state.fetches).toBe(2);
    expect(c.knownLibraries()).toEqual([TV]);
  });

  it("refetches after markStale() even while the list is fresh", async () => {
    const s = server([TV, ANIME]);
    const { cache: c } = cache(s.fetch);
    await c.listLibraries();
    s.state.libraries = [TV];
    c.markStale();
    expect(await c.listLibraries()).toEqual([TV]);
    expect(await c.listLibraries()).toEqual([TV]);
    expect(s.state.fetches).toBe(2);
  });

  it("serves a seeded list before any fetch, but still fetches on first use", async () => {
    const s = server([TV]);
    const { cache: c } = cache(s.fetch, { initial: [ANIME] });
    expect(c.knownLibraries()).toEqual([ANIME]);
    expect(await c.listLibraries()).toEqual([TV]);
    expect(s.state.fetches).toBe(1);
  });

  it("answers librariesFor from the seeded list when the first fetch fails", async () => {
    const s = server([TV]);
    s.state.failing = true;
    const { cache: c } = cache(s.fetch, { initial: [ANIME] });
    expect(await c.librariesFor("/data/Anime/Show")).toEqual([ANIME]);
  });

  it("finds a library added since the last fetch once the miss interval has passed", async () => {
    const s = server([TV]);
    const { cache: c, clock } = cache(s.fetch);
    expect(await c.librariesFor("/data/Anime/Show")).toEqual([]);
    s.state.libraries = [TV, ANIME];
    expect(await c.librariesFor("/data/Anime/Show")).toEqual([]);
    clock.advance(10_000);
    expect(await c.librariesFor("/data/Anime/Show")).toEqual([ANIME]);
    expect(s.state.fetches).toBe(2);
  });

  it("fetches on start and every TTL until stopped", async () => {
    const s = server([TV]);
    const { cache: c, clock } = cache(s.fetch);
    c.start();
    await vi.waitFor(() => expect(c.knownLibraries()).toEqual([TV]));
    clock.advance(60_000);
    expect(s.state.fetches).toBe(2);
    c.stop();
    clock.advance(600_000);
    expect(s.state.fetches).toBe(2);
    expect(clock.pending).toBe(0);
  });
});
