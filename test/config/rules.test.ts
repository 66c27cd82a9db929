import { ALL_REQUIREMENTS } from "../../src/config/rules.js";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { parseConfigText } from "./parse.js";
import { problemsIn } from "./helpers.js";

const base = () => ({ ...defaultConfig("0123456789abcdef0123456789abcdef"), PLEX_TOKEN: "plex-token-0123" });

const problemsOf = (config: unknown): string[] => problemsIn(JSON.stringify(config), ALL_REQUIREMENTS);

describe("config rules a new user trips over", () => {
  it("refuses a relative mapping key and suggests the leading slash", () => {
    const problems = problemsOf({ ...base(), SERVER_PATH_MAPPINGS: { "data/Anime/": ["/anime/"], "/data/TV/": ["/tv/"] } });
    expect(problems).toEqual([
      'SERVER_PATH_MAPPINGS["data/Anime/"]: a key is the media server\'s own path and must be absolute: did you mean "/data/Anime/"?',
    ]);
  });

  it("accepts Windows keys and cloud-drive list entries, which have no leading slash by nature", () => {
    const mappings = { "D:\\Media\\TV\\": ["/mnt/tv/", "My Drive/Media/TV/"], "\\\\nas\\media\\": ["/nas/"] };
    expect(problemsOf({ ...base(), SERVER_PATH_MAPPINGS: mappings })).toEqual([]);
  });

  it("refuses an empty PLEX_TOKEN with the api method, and not with the scanner", () => {
    expect(problemsOf({ ...base(), PLEX_TOKEN: "" })).toEqual([
      expect.stringMatching(/^PLEX_TOKEN: must be set when PLEX_SCAN_METHOD is "api".*docs\/plex-token\.md/),
    ]);
    expect(problemsOf({ ...base(), PLEX_TOKEN: "  " })).toHaveLength(1);
    expect(problemsOf({ ...base(), PLEX_TOKEN: "", PLEX_SCAN_METHOD: "scanner" })).toEqual([]);
  });

  it("returns the requirements a command did not ask for instead of failing", () => {
    const text = JSON.stringify({ PLEX_TOKEN: "" });
    const loaded = parseConfigText(text, "config.json", []);
    expect(loaded.unmet).toEqual([expect.stringMatching(/^SERVER_PASS: missing/), expect.stringMatching(/^PLEX_TOKEN: must be set/)]);
    expect(() => parseConfigText(text, "config.json", ["plex"])).toThrow(/PLEX_TOKEN/);
  });

  it('ignores keys starting with "_" at every level, as notes', () => {
    const config = {
      _README: "notes",
      ...base(),
      CLOUD: { ...base().CLOUD, _CLOUD: "drive notes", ALLOWED: { ...base().CLOUD.ALLOWED, _why: "x" } },
      SERVER_PATH_MAPPINGS: { _comment: "Plex path -> Sonarr paths", "/data/TV/": ["/tv/"] },
    };
    const loaded = parseConfigText(JSON.stringify(config));
    expect(loaded.config.SERVER_PATH_MAPPINGS).toEqual({ "/data/TV/": ["/tv/"] });
    expect(JSON.stringify(loaded.config)).not.toContain("notes");
    expect(loaded.warnings).toEqual([]);
  });
});
