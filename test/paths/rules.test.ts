import { describe, expect, it } from "vitest";
import { createLibraryMatcher, createPathMapper, isAbsolutePath, parsePath, styleOf } from "../../src/paths/index.js";
import { normalizeFolder, separatorOf } from "../../src/queue/folder-key.js";
import { joinUnder } from "../../src/triggers/join-path.js";

const library = (location: string) => ({ id: "2", title: "TV", type: "show", locations: [location] });

describe("one set of path rules for the mapper, the queue and the *arr joins", () => {
  it("reads `\\TV\\Show` as a Windows path without a drive everywhere", () => {
    expect(styleOf("\\TV\\Show")).toBe("windows");
    expect(parsePath("\\TV\\Show")).toEqual({ style: "windows", root: "\\", parts: ["TV", "Show"], trailingSlash: false });
    expect(isAbsolutePath(parsePath("\\TV\\Show"))).toBe(false);
    expect(separatorOf("\\TV\\Show")).toBe("\\");
    expect(joinUnder("\\TV\\Show", "Season 1/e.mkv")).toBe("\\TV\\Show\\Season 1\\e.mkv");
  });

  it("refuses a drive-less Windows path in the queue and, unless a mapping names it, in the mapper", () => {
    expect(() => normalizeFolder("\\TV\\Show")).toThrow(/absolute/);
    expect(() => createPathMapper({}).toServerPath("\\TV\\Show\\e.mkv")).toThrow(/without a drive letter/);
    expect(createPathMapper({ "/data/TV/": ["\\TV\\"] }).toServerPath("\\TV\\Show\\e.mkv")).toBe("/data/TV/Show/e.mkv");
  });

  it("spells a drive letter one way in every module", () => {
    expect(normalizeFolder("d:\\TV\\Show")).toBe("D:\\TV\\Show");
    expect(createPathMapper({}).toServerPath("d:\\TV\\Show\\")).toBe("D:\\TV\\Show\\");
    expect(parsePath("d:/TV").root).toBe("D:");
  });

  it("spells a Windows folder as its library does, so case variants become one folder", () => {
    const matcher = createLibraryMatcher([library("D:\\TV")]);
    expect(matcher.spellLikeLibrary("d:\\tv\\Show")).toBe("D:\\TV\\Show");
    expect(matcher.spellLikeLibrary("D:\\TV\\Show")).toBe("D:\\TV\\Show");
    expect(matcher.spellLikeLibrary("d:\\tv")).toBe("D:\\TV");
    expect(matcher.librariesFor("d:\\tv\\Show").map((l) => l.id)).toEqual(["2"]);
    // POSIX paths are case-sensitive: /tv is not /TV.
    expect(createLibraryMatcher([library("/TV")]).librariesFor("/tv/Show")).toEqual([]);
  });

  it("names a path's library roots in the path's own form, whatever form the libraries' server uses", () => {
    const matcher = createLibraryMatcher([library("D:\\Media\\TV"), library("D:\\Media")]);
    // The target sees /data/TV/Show/e.mkv as D:\Media\TV\Show\e.mkv: its locations are cut at the same depth.
    expect(matcher.rootsOf("/data/TV/Show/e.mkv", "D:\\Media\\TV\\Show\\e.mkv").sort()).toEqual(["/data", "/data/TV"]);
    expect(createLibraryMatcher([library("/data/TV")]).rootsOf("/data/TV/Show/e.mkv")).toEqual(["/data/TV"]);
    expect(createLibraryMatcher([library("/data/TV")]).rootsOf("/data/TV2/e.mkv")).toEqual([]);
  });

  it("refuses a POSIX name that becomes '..' segments once mapped to Windows", () => {
    const mapper = createPathMapper({ "D:\\TV\\": ["/tv/"] });
    expect(() => mapper.toServerPath("/tv/Show\\..\\..\\x/e.mkv")).toThrow(
      /maps to "D:\\\\TV\\\\Show\\\\..\\\\..\\\\x\\\\e.mkv", which contains a '..' segment/,
    );
  });

  it("limits a path to 4,096 UTF-8 bytes, before and after mapping", () => {
    const name = "é".repeat(2_000); // 4,000 bytes
    expect(() => parsePath(`/${name}/${"x".repeat(100)}`)).toThrow(/longer than 4096 bytes/);
    expect(parsePath(`/${name}`).parts).toEqual([name]);
    // Plain ASCII takes a shorter way through the checks: the same bound.
    expect(parsePath(`/${"a".repeat(4_095)}`).parts).toEqual(["a".repeat(4_095)]);
    expect(() => parsePath(`/${"a".repeat(4_096)}`)).toThrow(/longer than 4096 bytes/);
    const mapper = createPathMapper({ [`/${"m".repeat(200)}/`]: ["/tv/"] });
    expect(() => mapper.toServerPath(`/tv/${name}`)).toThrow(/maps to .*, which is longer than 4096 bytes/);
  });

  it("refuses a lone surrogate, which no file name can hold", () => {
    expect(() => parsePath("/tv/\ud800x")).toThrow(/lone surrogate/);
    expect(parsePath("/tv/😀").parts).toEqual(["tv", "😀"]);
  });
});
