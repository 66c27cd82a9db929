import { describe, expect, it } from "vitest";
import type { Library } from "../../src/domain.js";
import { createPathMapper } from "../../src/paths/mapper.js";
import { isScannable, resolveTargets, tracePath, type ResolvedTarget } from "../../src/paths/trace.js";

const LIBRARIES: Library[] = [
  { id: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] },
  { id: "2", title: "TV Shows", type: "show", locations: ["/data/TV-Shows", "/data/TV"] },
];
const mapper = createPathMapper({
  "/data/TV/": ["/tv/", "My Drive/Media/TV/"],
  "/data/Movies/": ["/movies/"],
  "/data/Anime/": ["/anime/"],
});
const plex: ResolvedTarget = { name: "plex", toTargetPath: (p) => p, libraries: LIBRARIES };
const deps = { mapper, ignoreList: ["/.grab/"], targets: [plex] };

describe("tracePath", () => {
  it("shows each step from an *arr path to the library that scans its folder", () => {
    const trace = tracePath("/tv/Show/Season 1/Show - S01E01.mkv", deps);
    expect(trace).toEqual({
      input: "/tv/Show/Season 1/Show - S01E01.mkv",
      mapping: { prefix: "/tv/", key: "/data/TV/" },
      serverPath: "/data/TV/Show/Season 1/Show - S01E01.mkv",
      kind: { isFile: true, why: '".mkv" is in the list of media file extensions' },
      folder: "/data/TV/Show/Season 1",
      targets: [{ target: "plex", path: "/data/TV/Show/Season 1", library: { id: "2", title: "TV Shows", location: "/data/TV" } }],
    });
    expect(isScannable(trace)).toBe(true);
  });

  it("says a dotted name without a media extension is a folder, and why", () => {
    const trace = tracePath("/movies/Movie.2010.1080p", deps);
    expect(trace.kind).toEqual({ isFile: false, why: '".1080p" is not in the list of media file extensions' });
    expect(trace.folder).toBe("/data/Movies/Movie.2010.1080p");
  });

  it("follows what the webhook said over the name", () => {
    expect(tracePath("/movies/Movie (2010)/extras", { ...deps, kind: "file" }).kind).toEqual({
      isFile: true,
      why: "the request said it is a file",
    });
    expect(tracePath("/movies/x.mkv", { ...deps, kind: "folder" }).folder).toBe("/data/Movies/x.mkv");
  });

  it("names the key itself for a path already in the media server's form, and no mapping when none matched", () => {
    const own = tracePath("/data/Movies/A (2001)/a.mkv", deps);
    expect(own.mapping).toEqual({ prefix: "/data/Movies/", key: "/data/Movies/" });
    expect(own.targets[0]?.library?.title).toBe("Movies");
    const none = tracePath("/srv/other/a.mkv", deps);
    expect(none.mapping).toBeUndefined();
    expect(none.serverPath).toBe("/srv/other/a.mkv");
  });

  it("says why a mapped folder is in no library, listing the libraries", () => {
    const trace = tracePath("/anime/Show/ep.mkv", deps);
    expect(trace.targets).toEqual([
      {
        target: "plex",
        path: "/data/Anime/Show",
        why: "no library holds /data/Anime/Show; libraries: Movies (/data/Movies), TV Shows (/data/TV-Shows, /data/TV)",
      },
    ]);
    expect(isScannable(trace)).toBe(false);
  });

  it("stops at a relative path no mapping covers, and at the ignore list", () => {
    expect(tracePath("Shared/x.mkv", deps)).toMatchObject({
      error: expect.stringMatching(/relative and matches no cloud-drive prefix/),
      targets: [],
    });
    expect(tracePath("/tv/.grab/x.mkv", deps)).toMatchObject({ ignoredBy: "/.grab/", targets: [] });
  });

  it("rewrites per target and says when a target's libraries are unknown", async () => {
    const jellyfin: ResolvedTarget = {
      name: "jellyfin",
      toTargetPath: (p) => p.replace("/data/", "/media/"),
      libraries: { error: "unreachable" },
    };
    const trace = tracePath("My Drive/Media/TV/Show/S01/e.mkv", { ...deps, targets: [plex, jellyfin] });
    expect(trace.targets[1]).toEqual({ target: "jellyfin", path: "/media/TV/Show/S01", why: "libraries unknown: unreachable" });
    expect(isScannable(trace)).toBe(true);
    const resolved = await resolveTargets([
      {
        target: {
          name: "down",
          scansPerLibrary: true,
          listLibraries: () => Promise.reject(new Error("ECONNREFUSED")),
          scan: async () => {},
        },
        toTargetPath: (p) => p,
      },
    ]);
    expect(resolved[0]?.libraries).toEqual({ error: "ECONNREFUSED" });
  });
});
