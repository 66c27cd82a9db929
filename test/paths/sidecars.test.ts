import { describe, expect, it } from "vitest";
import { sidecarOf, videosOf } from "../../src/paths/sidecars.js";

const FOLDER = "/data/Movies/Heat (1995)/";
const VIDEOS = [`${FOLDER}Heat (1995).mkv`, `${FOLDER}Heat (1995) - Director's Cut.mkv`, `${FOLDER}Extras/Heat (1995) - Trailer.mkv`];

/** The table of docs/item-refresh.md, row by row: the sidecar → the videos it belongs to. */
const TABLE: Array<[string, string[]]> = [
  ["Heat (1995).srt", ["Heat (1995).mkv"]],
  ["Heat (1995).en.srt", ["Heat (1995).mkv"]],
  ["Heat (1995).en.forced.srt", ["Heat (1995).mkv"]],
  ["Heat (1995).en.sdh.ass", ["Heat (1995).mkv"]],
  ["Heat (1995).fr.ssa", ["Heat (1995).mkv"]],
  ["Heat (1995).sub", ["Heat (1995).mkv"]],
  ["Heat (1995).idx", ["Heat (1995).mkv"]],
  ["Heat (1995).de.vtt", ["Heat (1995).mkv"]],
  ["Heat (1995) - Director's Cut.en.srt", ["Heat (1995) - Director's Cut.mkv"]],
  ["Heat (1995).nfo", ["Heat (1995).mkv"]],
  ["Heat (1995)-poster.jpg", ["Heat (1995).mkv"]],
  ["Heat (1995).jpg", ["Heat (1995).mkv"]],
  ["movie.nfo", ["Heat (1995).mkv", "Heat (1995) - Director's Cut.mkv"]],
  ["poster.jpg", ["Heat (1995).mkv", "Heat (1995) - Director's Cut.mkv"]],
  ["fanart.jpg", ["Heat (1995).mkv", "Heat (1995) - Director's Cut.mkv"]],
  ["folder.png", ["Heat (1995).mkv", "Heat (1995) - Director's Cut.mkv"]],
  ["Ronin (1998).en.srt", []],
];

describe("the sidecar table", () => {
  it.each(TABLE)("%s belongs to %j", (name, videos) => {
    const sidecar = sidecarOf(`${FOLDER}${name}`);
    expect(sidecar).toBeDefined();
    expect(videosOf(sidecar as NonNullable<typeof sidecar>, VIDEOS)).toEqual(videos.map((v) => `${FOLDER}${v}`));
  });

  it("prefers the longest video name a subtitle starts with", () => {
    const sidecar = sidecarOf("/m/A/Movie.en.srt");
    expect(videosOf(sidecar as NonNullable<typeof sidecar>, ["/m/A/Movie.mkv", "/m/A/Movie.en.mkv"])).toEqual(["/m/A/Movie.en.mkv"]);
  });

  it("does not take a video whose name merely begins the same way", () => {
    const sidecar = sidecarOf("/m/A/Movie 2.en.srt");
    expect(videosOf(sidecar as NonNullable<typeof sidecar>, ["/m/A/Movie.mkv"])).toEqual([]);
  });

  it("is not a sidecar: a video, a folder, an unknown file, a bare name", () => {
    for (const path of ["/m/A/Movie.mkv", "/m/A/Movie (2020)", "/m/A/notes.txt", "Movie.en.srt"]) expect(sidecarOf(path)).toBeUndefined();
  });

  it("reads Windows paths with their own separator", () => {
    const sidecar = sidecarOf("D:\\Movies\\Heat\\Heat.en.srt");
    expect(videosOf(sidecar as NonNullable<typeof sidecar>, ["D:\\Movies\\Heat\\Heat.mkv", "D:\\Movies\\Other\\Heat.mkv"])).toEqual([
      "D:\\Movies\\Heat\\Heat.mkv",
    ]);
  });
});
