import { describe, expect, it } from "vitest";
import { mergeMappings } from "../../src/setup/config-changes.js";

describe("mergeMappings", () => {
  it("adds found prefixes to their key and keeps keys and prefixes it does not touch", () => {
    const current = { "/data/TV/": ["My Drive/Media/TV/"], "/data/Anime/": ["/anime/"] };
    expect(mergeMappings(current, { "/data/TV/": ["/tv/"] })).toEqual({
      "/data/TV/": ["My Drive/Media/TV/", "/tv/"],
      "/data/Anime/": ["/anime/"],
    });
  });

  it("moves a prefix found under another key, dropping a key left empty", () => {
    const current = { "/data/Series/": ["/tv/"], "/data/Movies/": ["/movies/"] };
    expect(mergeMappings(current, { "/data/TV/": ["/tv/"], "/data/Movies/": ["/movies/"] })).toEqual({
      "/data/Movies/": ["/movies/"],
      "/data/TV/": ["/tv/"],
    });
  });

  it("changes nothing when the found prefixes are already there", () => {
    const current = { "/data/TV/": ["/tv/"] };
    expect(mergeMappings(current, { "/data/TV/": ["/tv/"] })).toEqual(current);
  });
});
