import { describe, expect, it } from "vitest";
import { createPathMapper, PathError } from "../../src/paths/index.js";

const mapper = createPathMapper({
  "/data/Movies/": ["/mnt/unionfs/Media/Movies/", "My Drive/Media/Movies/", "/movies"],
  "/data/TV/": ["/mnt/TV/", "My Drive/Media/TV/"],
  "/data/TV/Anime/": ["/mnt/anime/"],
});

describe("createPathMapper", () => {
  it("rewrites a mount path to the media-server key", () => {
    expect(mapper.toServerPath("/mnt/unionfs/Media/Movies/Heat (1995)/Heat.mkv")).toBe("/data/Movies/Heat (1995)/Heat.mkv");
  });

  it("rewrites a cloud-drive path without a leading slash", () => {
    expect(mapper.toServerPath("My Drive/Media/TV/Show/Season 01/e01.mkv")).toBe("/data/TV/Show/Season 01/e01.mkv");
  });

  it("accepts alternatives written without a trailing slash", () => {
    expect(mapper.toServerPath("/movies/Heat (1995)")).toBe("/data/Movies/Heat (1995)");
  });

  it("matches whole components only: /mnt/TV/ does not match /mnt/TV 2/", () => {
    expect(mapper.toServerPath("/mnt/TV 2/Show/e.mkv")).toBe("/mnt/TV 2/Show/e.mkv");
  });

  it("prefers the longest matching prefix over all entries", () => {
    expect(mapper.toServerPath("/mnt/anime/Naruto/e1.mkv")).toBe("/data/TV/Anime/Naruto/e1.mkv");
    expect(mapper.toServerPath("/data/TV/Anime/Naruto")).toBe("/data/TV/Anime/Naruto");
  });

  it("replaces only the prefix, not later occurrences of it", () => {
    expect(mapper.toServerPath("/mnt/TV/mnt/TV/x.mkv")).toBe("/data/TV/mnt/TV/x.mkv");
  });

  it("passes a path already in media-server form through unchanged", () => {
    expect(mapper.toServerPath("/data/Movies/Heat (1995)/Heat.mkv")).toBe("/data/Movies/Heat (1995)/Heat.mkv");
  });

  it("keeps a trailing slash of the request", () => {
    expect(mapper.toServerPath("/mnt/TV/Show/")).toBe("/data/TV/Show/");
  });

  it("normalises input to Unicode NFC", () => {
    const decomposed = "/mnt/TV/Pok\u0065\u0301mon/e.mkv";
    expect(mapper.toServerPath(decomposed)).toBe("/data/TV/Pok\u00e9mon/e.mkv");
  });

  it("rejects a '..' segment, a NUL byte and an unmapped relative path", () => {
    expect(() => mapper.toServerPath("/mnt/TV/../etc/passwd")).toThrow(/'\.\.' segment/);
    expect(() => mapper.toServerPath("/mnt/TV/a\0b")).toThrow(/NUL byte/);
    expect(() => mapper.toServerPath("Other Drive/Media/x.mkv")).toThrow(PathError);
    expect(() => mapper.toServerPath("Other Drive/Media/x.mkv")).toThrow(/relative and matches no cloud-drive prefix/);
  });

  it("rejects every C0 and C1 control character and DEL, naming its code point and position, not the character", () => {
    const controls = [...Array.from({ length: 32 }, (_, i) => i), 0x7f, ...Array.from({ length: 32 }, (_, i) => 0x80 + i)];
    for (const code of controls) {
      const hex = code.toString(16).toUpperCase().padStart(4, "0");
      let message = "";
      try {
        mapper.toServerPath(`/mnt/TV/Show ${String.fromCharCode(code)}/e.mkv`);
      } catch (error) {
        if (error instanceof PathError) message = error.message;
      }
      expect(message, `U+${hex}`).toMatch(new RegExp(`contains .*\\(U\\+${hex}\\) at character 14$`));
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters.
      expect(message, `U+${hex}`).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });

  it("counts the position in characters, not UTF-16 units", () => {
    expect(() => mapper.toServerPath("/mnt/TV/\u{1F3AC}\t/e.mkv")).toThrow(/tab \(U\+0009\) at character 10$/);
  });

  it("does not treat a '..' inside a name as a segment", () => {
    expect(mapper.toServerPath("/mnt/TV/Show../e.mkv")).toBe("/data/TV/Show../e.mkv");
  });
});

describe("Windows media-server keys", () => {
  const win = createPathMapper({
    "D:\\Media\\TV\\": ["/mnt/unionfs/Media/TV/", "My Drive/Media/TV/"],
    "\\\\nas\\media\\Movies\\": ["/mnt/movies/"],
  });

  it("writes the rewritten remainder with backslashes", () => {
    expect(win.toServerPath("/mnt/unionfs/Media/TV/Show/Season 1/e.mkv")).toBe("D:\\Media\\TV\\Show\\Season 1\\e.mkv");
    expect(win.toServerPath("My Drive/Media/TV/Show/e.mkv")).toBe("D:\\Media\\TV\\Show\\e.mkv");
  });

  it("maps to a UNC share", () => {
    expect(win.toServerPath("/mnt/movies/Heat (1995)/Heat.mkv")).toBe("\\\\nas\\media\\Movies\\Heat (1995)\\Heat.mkv");
  });

  it("passes a Windows path in media-server form through, whatever its separators", () => {
    expect(win.toServerPath("D:\\Media\\TV\\Show\\e.mkv")).toBe("D:\\Media\\TV\\Show\\e.mkv");
    expect(win.toServerPath("d:/Media/TV/Show/e.mkv")).toBe("D:\\Media\\TV\\Show\\e.mkv");
  });
});
