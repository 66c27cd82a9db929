import { describe, expect, it } from "vitest";
import { findLibrariesFor, folderToScan, isWithin } from "../../src/paths/index.js";

describe("folderToScan", () => {
  it("gives the parent folder of a media file", () => {
    expect(folderToScan("/data/TV/Show/Season 01/Show - S01E01.mkv")).toBe("/data/TV/Show/Season 01");
  });

  it("treats a dotted folder name as a folder", () => {
    expect(folderToScan("/data/Movies/Movie.2010.1080p")).toBe("/data/Movies/Movie.2010.1080p");
  });

  it("treats subtitles and metadata as files", () => {
    expect(folderToScan("/data/Movies/Heat (1995)/Heat.en.srt")).toBe("/data/Movies/Heat (1995)");
    expect(folderToScan("/data/Movies/Heat (1995)/movie.nfo")).toBe("/data/Movies/Heat (1995)");
  });

  it("trusts an explicit answer over the name", () => {
    expect(folderToScan("/data/Movies/Odd.mkv", true)).toBe("/data/Movies/Odd.mkv");
    expect(folderToScan("/data/Movies/Heat (1995)/README", false)).toBe("/data/Movies/Heat (1995)");
  });

  it("drops a trailing slash of a folder", () => {
    expect(folderToScan("/data/TV/Show/")).toBe("/data/TV/Show");
  });

  it("handles Windows paths", () => {
    expect(folderToScan("D:\\Media\\TV\\Show\\e.mkv")).toBe("D:\\Media\\TV\\Show");
  });
});

describe("isWithin and findLibrariesFor", () => {
  const libraries = [
    { id: "1", title: "TV", type: "show", locations: ["/data/TV"] },
    { id: "2", title: "Anime", type: "show", locations: ["/data/TV/Anime/"] },
    { id: "3", title: "TV 2", type: "show", locations: ["/data/TV 2"] },
  ];

  it("compares whole components", () => {
    expect(isWithin("/data/TV", "/data/TV/Show")).toBe(true);
    expect(isWithin("/data/TV", "/data/TV")).toBe(true);
    expect(isWithin("/data/TV", "/data/TV 2/Show")).toBe(false);
    expect(isWithin("/TV/Show", "/TV/Show/Season 1")).toBe(true);
    expect(isWithin("/TV/Show", "/TV/Show 2")).toBe(false);
    expect(isWithin("D:\\TV", "D:\\TV\\Show")).toBe(true);
  });

  it("orders matching libraries by the longest location", () => {
    expect(findLibrariesFor("/data/TV/Anime/Naruto", libraries).map((l) => l.id)).toEqual(["2", "1"]);
    expect(findLibrariesFor("/data/TV 2/Show", libraries).map((l) => l.id)).toEqual(["3"]);
    expect(findLibrariesFor("/elsewhere", libraries)).toEqual([]);
  });
});
