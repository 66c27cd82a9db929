import { describe, expect, it } from "vitest";
import { editJson } from "../../src/config/json-edit.js";

const FILE = `{
  "_NOTE": "kept",
  "PLEX_TOKEN": "",
  "SERVER_PATH_MAPPINGS": {
    "/data/TV/": ["/tv/"]
  },
  "TARGETS": []
}
`;

describe("editJson", () => {
  it("replaces a value in place and leaves every other line as it was", () => {
    const out = editJson(FILE, [{ path: ["PLEX_TOKEN"], value: "abc" }]);
    expect(out).toBe(FILE.replace('"PLEX_TOKEN": ""', '"PLEX_TOKEN": "abc"'));
  });

  it("adds a member after the last one, indented like it, and nested members under an existing object", () => {
    const out = editJson(FILE, [
      { path: ["SERVER_PATH_MAPPINGS", "/data/Movies/"], value: ["/movies/"] },
      { path: ["PLEX_LOCAL_URL"], value: "http://plex:32400" },
    ]);
    expect(out).toContain('    "/data/TV/": ["/tv/"],\n    "/data/Movies/": [\n      "/movies/"\n    ]\n  },');
    expect(out.endsWith('  "TARGETS": [],\n  "PLEX_LOCAL_URL": "http://plex:32400"\n}\n')).toBe(true);
    expect(JSON.parse(out)).toMatchObject({
      _NOTE: "kept",
      SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"], "/data/Movies/": ["/movies/"] },
    });
  });

  it("appends to an empty array, creates a missing parent, and removes a key", () => {
    const out = editJson(FILE, [
      { path: ["TARGETS", -1], value: { TYPE: "jellyfin", NAME: "jellyfin" } },
      { path: ["CLOUD", "ENABLED"], value: false },
      { path: ["_NOTE"], value: undefined },
    ]);
    expect(JSON.parse(out)).toEqual({
      PLEX_TOKEN: "",
      SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"] },
      TARGETS: [{ TYPE: "jellyfin", NAME: "jellyfin" }],
      CLOUD: { ENABLED: false },
    });
    expect(out).toContain('  "TARGETS": [\n    {\n      "TYPE": "jellyfin",');
  });

  it("changes nothing when every value is already there", () => {
    expect(editJson(FILE, [{ path: ["SERVER_PATH_MAPPINGS", "/data/TV/"], value: ["/tv/"] }])).toBe(FILE);
  });
});
