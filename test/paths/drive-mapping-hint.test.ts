import { describe, expect, it } from "vitest";
import { describeMappingToAdd, suggestDriveMapping } from "../../src/paths/drive-mapping-hint.js";

describe("the SERVER_PATH_MAPPINGS entry suggested for an unmapped drive path", () => {
  it("aligns on the shallowest folder named like a library folder", () => {
    const add = suggestDriveMapping("My Drive/encrypt/Media/TV/Show/Season 1/x.mkv", ["/data/Media/Movies", "/data/Media/TV"]);
    expect(describeMappingToAdd(add)).toBe('add "/data/Media/": ["My Drive/encrypt/Media/"] to SERVER_PATH_MAPPINGS');
  });

  it("skips a same-named folder that would land the path in no library", () => {
    // "Media" is in /data/Media/Movies, but My Drive/Media/TV/ would become /data/Media/TV/, no library.
    expect(suggestDriveMapping("My Drive/Media/TV/", ["/data/Media/Movies", "/data/TV"])).toEqual({
      key: "/data/TV/",
      entry: "My Drive/Media/TV/",
      derived: true,
    });
  });

  it("keeps a Windows library's spelling, and offers a placeholder with the watched folder when no name matches", () => {
    expect(suggestDriveMapping("My Drive/crypt/TV/a.mkv", ["D:\\Media\\TV"]).key).toBe("D:\\Media\\TV\\");
    const add = suggestDriveMapping("My Drive/encrypt/x/a.mkv", ["/data/Movies"], "My Drive/encrypt/");
    expect(describeMappingToAdd(add)).toBe(
      'add "/path/on/the/server/": ["My Drive/encrypt/"] to SERVER_PATH_MAPPINGS, with the folder your media servers see My Drive/encrypt/ as in place of /path/on/the/server/ (no library folder shares a folder name with it)',
    );
  });
});
