import { describe, expect, it } from "vitest";
import { matchIgnoreList } from "../../src/paths/ignore.js";

describe("SERVER_IGNORE_LIST matching", () => {
  const list = ["/.grab/", ".DS_Store", "Thumbs.db"];

  it("returns the entry found anywhere in the path, ignoring case", () => {
    expect(matchIgnoreList("/mnt/media/.GRAB/Movie/file.mkv", list)).toBe("/.grab/");
    expect(matchIgnoreList("/tv/Show/.ds_store", list)).toBe(".DS_Store");
  });

  it("returns undefined when no entry matches", () => {
    expect(matchIgnoreList("/tv/Show/Season 1/e1.mkv", list)).toBeUndefined();
    expect(matchIgnoreList("/tv/Show", [])).toBeUndefined();
  });

  it("never lets an empty entry ignore every path", () => {
    expect(matchIgnoreList("/tv/Show", [""])).toBeUndefined();
  });
});
