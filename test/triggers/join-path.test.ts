import { describe, expect, it } from "vitest";
import { joinUnder } from "../../src/triggers/join-path.js";

describe("joinUnder", () => {
  it.each([
    ["/tv/Show", "Season 1/a.mkv", "/tv/Show/Season 1/a.mkv"],
    ["/tv/Show/", "/Season 1/a.mkv", "/tv/Show/Season 1/a.mkv"],
    ["/", "a.mkv", "/a.mkv"],
    ["D:\\TV\\Show", "Season 1\\a.mkv", "D:\\TV\\Show\\Season 1\\a.mkv"],
    ["D:\\TV\\Show", "Season 1/a.mkv", "D:\\TV\\Show\\Season 1\\a.mkv"],
    ["D:/TV/Show", "Season 1\\a.mkv", "D:/TV/Show/Season 1/a.mkv"],
    ["D:\\", "a.mkv", "D:\\a.mkv"],
    ["\\\\nas\\tv\\Show", "a.mkv", "\\\\nas\\tv\\Show\\a.mkv"],
  ])("joins %s and %s in the folder's style", (folder, relative, joined) => {
    expect(joinUnder(folder, relative)).toBe(joined);
  });

  it("keeps a backslash inside a POSIX file name as a name character", () => {
    expect(joinUnder("/tv/Show", "Season 1/a\\b.mkv")).toBe("/tv/Show/Season 1/a\\b.mkv");
  });
});
