import { describe, expect, it } from "vitest";
import { matchIgnoreList, partitionIgnored } from "../../src/triggers/index.js";

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

  it("splits requested paths into kept and ignored, saying which entry dropped each", () => {
    const { kept, ignored } = partitionIgnored(
      [
        { path: "/tv/Show/e1.mkv", kind: "file" },
        { path: "/tv/Show/Thumbs.db", kind: "file" },
      ],
      list,
    );
    expect(kept).toEqual([{ path: "/tv/Show/e1.mkv", kind: "file" }]);
    expect(ignored).toEqual([{ path: "/tv/Show/Thumbs.db", kind: "file", entry: "Thumbs.db" }]);
  });
});
