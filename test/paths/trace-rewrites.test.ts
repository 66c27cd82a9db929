import { describe, expect, it } from "vitest";
import type { Library } from "../../src/domain.js";
import { createPathFilter } from "../../src/paths/filter.js";
import { createPathMapper } from "../../src/paths/mapper.js";
import { createRewriter } from "../../src/paths/rewrite.js";
import { tracePath, type ResolvedTarget } from "../../src/paths/trace.js";

const LIBRARIES: Library[] = [{ id: "2", title: "TV Shows", type: "show", locations: ["/data/TV"] }];
const sourceRules = createRewriter([
  { rules: [{ FROM: "^/srv/(?P<show>[^/]+)/S(\\d+)/", TO: "/tv/${show}/Season $2/" }], at: "SOURCES.sonarr.REWRITES" },
  { rules: [{ FROM: "^/old/", TO: "/tv/" }], at: "SERVER_PATH_REWRITES" },
]);
const mapper = createPathMapper({ "/data/TV/": ["/tv/"] }, "SERVER_PATH_MAPPINGS", sourceRules);
const jellyfinMapper = createPathMapper(
  {},
  "TARGETS[0].PATH_MAPPINGS",
  createRewriter([{ rules: [{ FROM: "^/data/TV/", TO: "/media/tv/" }], at: "TARGETS[0].REWRITES" }]),
);
const plex: ResolvedTarget = { name: "plex", toTargetPath: (p) => p, libraries: LIBRARIES };
const jellyfin: ResolvedTarget = {
  name: "jellyfin",
  toTargetPath: (p) => jellyfinMapper.toServerPath(p),
  explainTargetPath: (p) => jellyfinMapper.explain(p),
  libraries: [{ id: "a", title: "Shows", type: "tvshows", locations: ["/media/tv"] }],
};
const filter = createPathFilter([], ["/Extras/"], "SOURCES.sonarr");
const deps = { mapper, ignoreList: [], targets: [plex, jellyfin], source: { name: "sonarr", filter } };

describe("the tracer with rewrites and a source's filters", () => {
  it("shows the source's rewrite, then the mapping, then each target's own rewrite", () => {
    const trace = tracePath("/srv/Lost/S01/e01.mkv", deps);
    expect(trace).toMatchObject({
      source: "sonarr",
      rewrite: { rule: "SOURCES.sonarr.REWRITES[0]", result: "/tv/Lost/Season 01/e01.mkv" },
      mapping: { prefix: "/tv/", key: "/data/TV/" },
      folder: "/data/TV/Lost/Season 01",
      targets: [
        { target: "plex", path: "/data/TV/Lost/Season 01", library: { title: "TV Shows" } },
        {
          target: "jellyfin",
          path: "/media/tv/Lost/Season 01",
          rewrite: { rule: "TARGETS[0].REWRITES[0]", from: "^/data/TV/", to: "/media/tv/" },
          library: { title: "Shows" },
        },
      ],
    });
  });

  it("falls back to SERVER_PATH_REWRITES when no rule of the source matches", () => {
    expect(tracePath("/old/Show/Season 1/e.mkv", deps).rewrite?.rule).toBe("SERVER_PATH_REWRITES[0]");
  });

  it("stops at the source's EXCLUDE, saying which entry dropped the path", () => {
    const trace = tracePath("/srv/Lost/S01/Extras/x.mkv", deps);
    expect(trace.filteredBy).toBe('excluded by SOURCES.sonarr.EXCLUDE[0] "/Extras/"');
    expect(trace.targets).toEqual([]);
  });

  it("says a path matches none of the INCLUDE patterns", () => {
    const include = createPathFilter(["^/tv/Anime/"], [], "SOURCES.manual");
    expect(tracePath("/tv/Lost/e.mkv", { ...deps, source: { name: "manual", filter: include } }).filteredBy).toBe(
      "matches no pattern of SOURCES.manual.INCLUDE",
    );
  });
});
