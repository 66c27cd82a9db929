import { describe, expect, it } from "vitest";
import { isFromFlatKeys, writtenKeyOf, writtenPathOf, withPlexEntry } from "../../src/config/plex-entry.js";
import { PASS, problemsOf } from "./helpers.js";
import { parseConfigText } from "./parse.js";

const PLEX_4K = { TYPE: "plex", NAME: "plex-4k", URL: "http://plex4k:32400", TOKEN: "four-k-token" };
const JELLYFIN = { TYPE: "jellyfin", NAME: "jf", URL: "http://jellyfin:8096", TOKEN: "abc" };

/** The loaded config and the file as written, for a config.json holding a valid SERVER_PASS and `extra`. */
function loaded(extra: Record<string, unknown>) {
  return parseConfigText(JSON.stringify({ SERVER_PASS: PASS, ...extra }));
}

describe("the flat PLEX_* keys as a TARGETS entry", () => {
  it("become the only entry, named plex, when TARGETS is empty", () => {
    const { config } = loaded({ PLEX_LOCAL_URL: "http://plex:32400", PLEX_TOKEN: "tok", PLEX_DATABASE_PATH: "/plex.db" });
    expect(config.TARGETS).toHaveLength(1);
    expect(config.TARGETS[0]).toMatchObject({
      TYPE: "plex",
      NAME: "plex",
      URL: "http://plex:32400",
      TOKEN: "tok",
      ENABLED: true,
      PATH_MAPPINGS: {},
      SCAN_METHOD: "api",
      DATABASE_PATH: "/plex.db",
    });
    expect(isFromFlatKeys(config.TARGETS[0] as NonNullable<(typeof config.TARGETS)[0]>)).toBe(true);
    expect(config.PLEX_ENABLED).toBe(false);
  });

  it("is named plex-scanner with the scanner method, and keeps that method", () => {
    const { config } = loaded({ PLEX_SCAN_METHOD: "scanner" });
    expect(config.TARGETS[0]).toMatchObject({ NAME: "plex-scanner", SCAN_METHOD: "scanner" });
  });

  it("come first, before the user's entries in their order", () => {
    const { config } = loaded({ PLEX_TOKEN: "tok", TARGETS: [JELLYFIN, PLEX_4K] });
    expect(config.TARGETS.map((t) => t.NAME)).toEqual(["plex", "jf", "plex-4k"]);
  });

  it("make no entry with PLEX_ENABLED false: TARGETS stays the user's", () => {
    const { config } = loaded({ PLEX_ENABLED: false, TARGETS: [JELLYFIN, { ...PLEX_4K, NAME: "plex" }] });
    expect(config.TARGETS.map((t) => t.NAME)).toEqual(["jf", "plex"]);
    expect(config.TARGETS.some(isFromFlatKeys)).toBe(false);
  });

  it("carry every after-scan setting to the entry, confirmation's timing included", () => {
    const { config } = loaded({
      PLEX_TOKEN: "tok",
      PLEX_CONFIRM_SCANS: false,
      PLEX_CONFIRM_POLL_INTERVAL: 5,
      PLEX_CONFIRM_MAX_WAIT: 60,
      PLEX_CONFIRM_RESCAN_DELAY: 30,
      PLEX_ANALYZE_TYPE: "deep",
      PLEX_ANALYZE_DIRECTORY: true,
      PLEX_EMPTY_TRASH: true,
      PLEX_EMPTY_TRASH_MAX_FILES: 7,
      PLEX_EMPTY_TRASH_ZERO_DELETED: true,
    });
    expect(config.TARGETS[0]).toMatchObject({
      CONFIRM_SCANS: false,
      CONFIRM_POLL_INTERVAL: 5,
      CONFIRM_MAX_WAIT: 60,
      CONFIRM_RESCAN_DELAY: 30,
      ANALYZE_TYPE: "deep",
      ANALYZE_DIRECTORY: true,
      EMPTY_TRASH: true,
      EMPTY_TRASH_MAX_FILES: 7,
      EMPTY_TRASH_ZERO_DELETED: true,
    });
  });

  it("are changed once when the loaded config is given again", () => {
    const { config } = loaded({ PLEX_TOKEN: "tok", TARGETS: [JELLYFIN] });
    expect(withPlexEntry(config).TARGETS.map((t) => t.NAME)).toEqual(["plex", "jf"]);
  });

  it("leave the file as written beside the loaded config (config show, setup)", () => {
    const { written } = loaded({ PLEX_TOKEN: "tok", TARGETS: [JELLYFIN] });
    expect(written.TARGETS.map((t) => t.NAME)).toEqual(["jf"]);
    expect(written.PLEX_ENABLED).toBe(true);
    expect(written.PLEX_TOKEN).toBe("tok");
  });
});

describe("the keys messages name", () => {
  it("are the flat keys for the entry they made, and the user's own places for the others", () => {
    const { config } = loaded({ PLEX_TOKEN: "tok", TARGETS: [JELLYFIN, PLEX_4K] });
    expect(writtenKeyOf(config, 0, "URL")).toBe("PLEX_LOCAL_URL");
    expect(writtenKeyOf(config, 0, "TOKEN")).toBe("PLEX_TOKEN");
    expect(writtenKeyOf(config, 0, "EMPTY_TRASH_MAX_FILES")).toBe("PLEX_EMPTY_TRASH_MAX_FILES");
    expect(writtenPathOf(config, 0)).toBeUndefined();
    expect(writtenKeyOf(config, 1, "TOKEN")).toBe("TARGETS[0].TOKEN");
    expect(writtenKeyOf(config, 2, "URL")).toBe("TARGETS[1].URL");
  });

  it("are the user's places when no entry was made", () => {
    const { config } = loaded({ PLEX_ENABLED: false, TARGETS: [JELLYFIN] });
    expect(writtenKeyOf(config, 0, "TOKEN")).toBe("TARGETS[0].TOKEN");
  });
});

describe("a TARGETS Plex entry's after-scan fields", () => {
  it("follow the PLEX_* keys when unset, with the entry's own server and token and no database", () => {
    const { config, written } = loaded({
      PLEX_ANALYZE_TYPE: "deep",
      PLEX_EMPTY_TRASH: true,
      PLEX_EMPTY_TRASH_MAX_FILES: 7,
      TARGETS: [PLEX_4K],
    });
    expect(written.TARGETS[0]).not.toHaveProperty("ANALYZE_TYPE");
    expect(config.TARGETS[1]).toMatchObject({
      NAME: "plex-4k",
      URL: "http://plex4k:32400",
      TOKEN: "four-k-token",
      DATABASE_PATH: "",
      SCAN_METHOD: "api",
      CONFIRM_SCANS: true,
      CONFIRM_POLL_INTERVAL: 10,
      ANALYZE_TYPE: "deep",
      EMPTY_TRASH: true,
      EMPTY_TRASH_MAX_FILES: 7,
    });
  });

  it("override the PLEX_* keys for that server only", () => {
    const fields = {
      CONFIRM_SCANS: false,
      ANALYZE_TYPE: "basic",
      ANALYZE_DIRECTORY: true,
      EMPTY_TRASH: true,
      EMPTY_TRASH_MAX_FILES: 3,
      EMPTY_TRASH_ZERO_DELETED: true,
      DATABASE_PATH: "/plex4k/com.plexapp.plugins.library.db",
    };
    const { config } = loaded({ TARGETS: [{ ...PLEX_4K, ...fields }] });
    expect(config.TARGETS[1]).toMatchObject(fields);
    // The entry of the flat keys keeps their own settings.
    expect(config.TARGETS[0]).toMatchObject({ NAME: "plex", CONFIRM_SCANS: true, ANALYZE_TYPE: "off", EMPTY_TRASH: false });
  });

  it("are checked with their dotted paths, and refused on entries that are not Plex", () => {
    const problems = problemsOf({
      TARGETS: [
        { ...PLEX_4K, ANALYZE_TYPE: "full", EMPTY_TRASH_MAX_FILES: -1, CONFIRM_SCANS: "yes" },
        { ...JELLYFIN, EMPTY_TRASH: true, DATABASE_PATH: "/x.db" },
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^TARGETS\[0\]\.ANALYZE_TYPE: must be one of/),
        "TARGETS[0].EMPTY_TRASH_MAX_FILES: must be at least 0, got -1",
        'TARGETS[0].CONFIRM_SCANS: must be true or false, got the string "yes"',
      ]),
    );
    // Shape problems stop the load before the rules that depend on TYPE run.
    expect(problems).toHaveLength(3);
    expect(problemsOf({ TARGETS: [{ ...JELLYFIN, EMPTY_TRASH: true }] })).toEqual([
      'TARGETS[0].EMPTY_TRASH: only TYPE "plex" takes it (after-scan work is Plex\'s)',
    ]);
  });

  it("cannot be the loader's own fields: SCAN_METHOD in a user's entry is an unknown key", () => {
    expect(problemsOf({ TARGETS: [{ ...PLEX_4K, SCAN_METHOD: "scanner" }] })).toEqual([
      expect.stringMatching(/^TARGETS\[0\]\.SCAN_METHOD: /),
    ]);
  });
});
