import { describe, expect, it } from "vitest";
import { ancestorsOf, descendantRangeOf, normalizeFolder } from "../../src/queue/folder-key.js";

describe("folder keys", () => {
  it("drops trailing separators but keeps roots whole", () => {
    expect(normalizeFolder("/data/TV/Show/")).toBe("/data/TV/Show");
    expect(normalizeFolder("/")).toBe("/");
    expect(normalizeFolder("D:\\Media\\TV\\")).toBe("D:\\Media\\TV");
    expect(normalizeFolder("d:\\")).toBe("D:\\");
  });

  it("spells Windows folders with backslashes and an upper-case drive", () => {
    expect(normalizeFolder("d:/Media/TV")).toBe("D:\\Media\\TV");
  });

  it("refuses relative folders, '..' components and NUL bytes", () => {
    expect(() => normalizeFolder("My Drive/Media")).toThrow(/absolute/);
    expect(() => normalizeFolder("/data/../etc")).toThrow(/\.\./);
    expect(() => normalizeFolder("/data/\0x")).toThrow(/NUL/);
  });

  it("lists every ancestor, root first, for POSIX and Windows folders", () => {
    expect(ancestorsOf("/data/TV/Show")).toEqual(["/", "/data", "/data/TV"]);
    expect(ancestorsOf("D:\\Media\\TV")).toEqual(["D:\\", "D:\\Media"]);
    expect(ancestorsOf("/")).toEqual([]);
  });

  it("bounds descendants by a separator-terminated prefix", () => {
    expect(descendantRangeOf("/data/TV")).toEqual({ from: "/data/TV/", to: "/data/TV0" });
    expect(descendantRangeOf("D:\\Media")).toEqual({ from: "D:\\Media\\", to: "D:\\Media]" });
    expect(descendantRangeOf("/")).toEqual({ from: "/", to: "0" });
  });
});
