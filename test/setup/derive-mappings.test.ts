import { describe, expect, it } from "vitest";
import { composeMappings } from "../../src/setup/compose-mappings.js";
import { deriveMappings, type DeriveApp, type DeriveTarget } from "../../src/setup/derive-mappings.js";

const SHOWS = ["The Expanse", "Severance", "Westworld", "Andor", "Dark"];
const MOVIES = ["Interstellar (2014)", "Parasite (2019)", "Dune (2021)", "Arrival (2016)"];
const under = (root: string, names: readonly string[]) => names.map((name) => `${root}/${name}`);

const sonarr = (rootFolders: string[], itemPaths: string[], extra: Partial<DeriveApp> = {}): DeriveApp => ({
  name: "Sonarr",
  itemsNoun: "series",
  rootFolders,
  itemPaths,
  ...extra,
});
const plex = (...libraries: Array<[string, string, string[]]>): DeriveTarget => ({
  name: "plex",
  libraries: libraries.map(([title, root, itemPaths]) => ({ title, roots: [root], itemPaths })),
});

interface Case {
  name: string;
  apps: DeriveApp[];
  targets: DeriveTarget[];
  links: Array<[target: string, from: string, to: string, matched: number, total: number]>;
  mappings: number;
  unmatched?: Array<[root: string, reason: string, suggestions: string[]]>;
  evidence?: string[];
}

const CASES: Case[] = [
  {
    name: "the same prefix on both sides: a link, no mapping",
    apps: [sonarr(["/tv"], under("/tv", SHOWS))],
    targets: [plex(["TV Shows", "/tv", under("/tv", SHOWS)])],
    links: [["plex", "/tv/", "/tv/", 5, 5]],
    mappings: 0,
    evidence: ["5 of 5 series (Sonarr) under /tv/ are at the same path in plex (TV Shows): no mapping needed"],
  },
  {
    name: "a different prefix (Docker paths)",
    apps: [sonarr(["/tv/"], under("/tv", SHOWS))],
    targets: [plex(["TV Shows", "/data/TV", under("/data/TV", SHOWS)])],
    links: [["plex", "/tv/", "/data/TV/", 5, 5]],
    mappings: 1,
    evidence: ["5 of 5 series (Sonarr) under /tv/ are under /data/TV/ in plex (TV Shows)"],
  },
  {
    name: "two roots to two libraries",
    apps: [sonarr(["/tv", "/anime"], [...under("/tv", SHOWS), ...under("/anime", ["Frieren", "Mushishi"])])],
    targets: [
      plex(["TV Shows", "/data/TV", under("/data/TV", SHOWS)], ["Anime", "/data/Anime", under("/data/Anime", ["Frieren", "Mushishi"])]),
    ],
    links: [
      ["plex", "/tv/", "/data/TV/", 5, 5],
      ["plex", "/anime/", "/data/Anime/", 2, 2],
    ],
    mappings: 2,
  },
  {
    name: "a 4K root to a separate library that shares its titles with the main one",
    apps: [
      {
        name: "Radarr",
        itemsNoun: "movies",
        rootFolders: ["/movies", "/movies4k"],
        itemPaths: [...under("/movies", MOVIES), ...under("/movies4k", MOVIES.slice(0, 2))],
      },
    ],
    targets: [
      plex(
        ["Movies", "/data/Movies", under("/data/Movies", MOVIES)],
        ["Movies 4K", "/data/Movies 4K", under("/data/Movies 4K", MOVIES.slice(0, 2))],
      ),
    ],
    links: [
      ["plex", "/movies/", "/data/Movies/", 4, 4],
      ["plex", "/movies4k/", "/data/Movies 4K/", 2, 2],
    ],
    mappings: 2,
  },
  {
    name: "a 4K root named unlike its library: the library holding only those titles fits best",
    apps: [
      {
        name: "Radarr",
        rootFolders: ["/movies", "/uhd"],
        itemPaths: [...under("/movies", MOVIES), ...under("/uhd", MOVIES.slice(0, 2))],
      },
    ],
    targets: [
      plex(["Movies", "/data/Movies", under("/data/Movies", MOVIES)], ["Movies 4K", "/data/4K", under("/data/4K", MOVIES.slice(0, 2))]),
    ],
    links: [
      ["plex", "/movies/", "/data/Movies/", 4, 4],
      ["plex", "/uhd/", "/data/4K/", 2, 2],
    ],
    mappings: 2,
  },
  {
    name: "an empty root: nothing proposed, the libraries' roots suggested",
    apps: [sonarr(["/tv", "/kids"], under("/tv", SHOWS))],
    targets: [plex(["TV Shows", "/data/TV", under("/data/TV", SHOWS)], ["Kids", "/data/Kids", []])],
    links: [["plex", "/tv/", "/data/TV/", 5, 5]],
    mappings: 1,
    unmatched: [["/kids/", "empty", ["/data/Kids/", "/data/TV/"]]],
  },
  {
    name: "an empty media-server library: the app's root is reported, not guessed",
    apps: [sonarr(["/tv"], under("/tv", SHOWS))],
    targets: [plex(["TV Shows", "/data/TV", []])],
    links: [],
    mappings: 0,
    unmatched: [["/tv/", "no match", ["/data/TV/"]]],
  },
  {
    name: "a folder name present in two roots goes with the root most of its neighbours go to",
    apps: [sonarr(["/tv", "/classic"], [...under("/tv", [...SHOWS, "Doctor Who"]), ...under("/classic", ["Doctor Who", "Blake's 7"])])],
    targets: [
      plex(
        ["TV Shows", "/data/TV", under("/data/TV", [...SHOWS, "Doctor Who"])],
        ["Classic TV", "/data/Classic", under("/data/Classic", ["Doctor Who", "Blake's 7"])],
      ),
    ],
    links: [
      ["plex", "/tv/", "/data/TV/", 6, 6],
      ["plex", "/classic/", "/data/Classic/", 2, 2],
    ],
    mappings: 2,
  },
  {
    name: "the same titles in two places named alike: ambiguous, both suggested",
    apps: [sonarr(["/tv"], under("/tv", SHOWS.slice(0, 2)))],
    targets: [plex(["A", "/a/x", under("/a/x", SHOWS.slice(0, 2))], ["B", "/b/x", under("/b/x", SHOWS.slice(0, 2))])],
    links: [],
    mappings: 0,
    unmatched: [["/tv/", "ambiguous", ["/a/x/", "/b/x/"]]],
  },
  {
    name: "Plex on Windows, Sonarr in Docker",
    apps: [sonarr(["/tv"], under("/tv", SHOWS))],
    targets: [plex(["TV Shows", "D:\\Media\\TV", SHOWS.map((s) => `D:\\Media\\TV\\${s}`)])],
    links: [["plex", "/tv/", "D:\\Media\\TV\\", 5, 5]],
    mappings: 1,
  },
  {
    name: "deeper common folders: the mapping stays at the app's root",
    apps: [sonarr(["/mnt/media/TV"], under("/mnt/media/TV", SHOWS))],
    targets: [plex(["TV Shows", "/data/media/TV", under("/data/media/TV", SHOWS)])],
    links: [["plex", "/mnt/media/TV/", "/data/media/TV/", 5, 5]],
    mappings: 1,
  },
];

describe("deriveMappings", () => {
  it.each(CASES)("$name", ({ apps, targets, links, mappings, unmatched = [], evidence }) => {
    const result = deriveMappings({ apps, targets });
    expect(result.links.map((l) => [l.target, l.from, l.to, l.matched, l.total])).toEqual(links);
    expect(result.mappings).toHaveLength(mappings);
    expect(result.mappings.every((m) => m.from !== m.to)).toBe(true);
    expect(result.unmatched.map((u) => [u.root, u.reason, u.suggestions])).toEqual(unmatched);
    if (evidence) expect(result.evidence).toEqual(evidence);
  });

  it("reports the folders only one side knows, and says how many of the items matched", () => {
    const result = deriveMappings({
      apps: [sonarr(["/tv"], under("/tv", [...SHOWS, "Only In Sonarr"]))],
      targets: [plex(["TV Shows", "/data/TV", under("/data/TV", [...SHOWS, "Only In Plex"])])],
    });
    expect(result.links).toMatchObject([{ from: "/tv/", to: "/data/TV/", matched: 5, total: 6 }]);
    expect(result.oneSided).toEqual([
      { target: "plex", app: "Sonarr", side: "app", under: "/tv/", count: 1, examples: ["/tv/Only In Sonarr"] },
      { target: "plex", app: "Sonarr", side: "server", under: "/data/TV/", count: 1, examples: ["/data/TV/Only In Plex"] },
    ]);
    expect(result.evidence).toEqual([
      "5 of 6 series (Sonarr) under /tv/ are under /data/TV/ in plex (TV Shows)",
      "1 series under /tv/ are in Sonarr but not in plex: /tv/Only In Sonarr",
      "1 folders under /data/TV/ are in plex but not in Sonarr: /data/TV/Only In Plex",
    ]);
  });

  it("does not report the server's folders as missing from an app whose list was only a sample", () => {
    const result = deriveMappings({
      apps: [sonarr(["/tv"], under("/tv", SHOWS.slice(0, 2)), { sampled: true })],
      targets: [plex(["TV Shows", "/data/TV", under("/data/TV", SHOWS)])],
    });
    expect(result.oneSided).toEqual([]);
  });

  it("proposes per target where the servers see different paths, and composes the config's two tables", () => {
    const jellyfin: DeriveTarget = {
      name: "jellyfin",
      libraries: [{ title: "Shows", roots: ["/media/TV"], itemPaths: under("/media/TV", SHOWS) }],
    };
    const emby: DeriveTarget = { name: "emby", libraries: [{ title: "TV", roots: ["/tv"], itemPaths: under("/tv", SHOWS) }] };
    const result = deriveMappings({
      apps: [sonarr(["/tv"], under("/tv", SHOWS))],
      targets: [plex(["TV Shows", "/data/TV", under("/data/TV", SHOWS)]), jellyfin, emby],
    });
    expect(result.mappings.map((m) => [m.target, m.from, m.to])).toEqual([
      ["plex", "/tv/", "/data/TV/"],
      ["jellyfin", "/tv/", "/media/TV/"],
    ]);
    expect(composeMappings(result.links, "plex")).toEqual({
      serverPathMappings: { "/data/TV/": ["/tv/"] },
      // emby sees the app's own path: it needs the primary's form turned back.
      targetPathMappings: { jellyfin: { "/media/TV/": ["/data/TV/"] }, emby: { "/tv/": ["/data/TV/"] } },
      left: [],
    });
  });

  it("leaves a target's link that the primary target cannot place, saying why", () => {
    const jellyfin: DeriveTarget = {
      name: "jellyfin",
      libraries: [{ title: "Shows", roots: ["/media/TV"], itemPaths: under("/media/TV", SHOWS) }],
    };
    const result = deriveMappings({
      apps: [sonarr(["/tv"], under("/tv", SHOWS))],
      targets: [plex(["TV Shows", "/data/TV", []]), jellyfin],
    });
    const composed = composeMappings(result.links, "plex");
    expect(composed.serverPathMappings).toEqual({});
    expect(composed.left.map((l) => l.why)).toEqual(["plex has no place for /tv/, so jellyfin's path cannot be chained to it"]);
  });

  it("ignores paths it cannot read and items outside every root get their parent as a root", () => {
    const result = deriveMappings({
      apps: [sonarr(["/tv"], ["", "relative/Show", "/elsewhere/Severance", ...under("/tv", SHOWS.slice(0, 1))])],
      targets: [plex(["TV Shows", "/data/TV", under("/data/TV", SHOWS)])],
    });
    expect(result.links.map((l) => [l.from, l.to])).toEqual([
      ["/tv/", "/data/TV/"],
      ["/elsewhere/", "/data/TV/"],
    ]);
  });
});
