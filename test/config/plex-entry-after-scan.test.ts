import { describe, expect, it } from "vitest";
import { afterScanConfigOfEntry } from "../../src/targets/plex/after-scan-config.js";
import { load, problemsOf } from "./helpers.js";

const PLEX_4K = { TYPE: "plex", NAME: "plex-4k", URL: "http://plex4k:32400", TOKEN: "four-k-token" };

describe("a TARGETS Plex entry's after-scan fields", () => {
  it("follow the PLEX_* keys when unset, with the entry's own server and token and no database", () => {
    const config = load({ PLEX_ANALYZE_TYPE: "deep", PLEX_EMPTY_TRASH: true, PLEX_EMPTY_TRASH_MAX_FILES: 7, TARGETS: [PLEX_4K] });
    const entry = config.TARGETS[0];
    expect(entry).toBeDefined();
    expect(entry).not.toHaveProperty("ANALYZE_TYPE");
    const settings = afterScanConfigOfEntry(config, entry as NonNullable<typeof entry>);
    expect(settings).toMatchObject({
      PLEX_LOCAL_URL: "http://plex4k:32400",
      PLEX_TOKEN: "four-k-token",
      PLEX_DATABASE_PATH: "",
      PLEX_SCAN_METHOD: "api",
      PLEX_CONFIRM_SCANS: true,
      PLEX_ANALYZE_TYPE: "deep",
      PLEX_EMPTY_TRASH: true,
      PLEX_EMPTY_TRASH_MAX_FILES: 7,
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
    const config = load({ TARGETS: [{ ...PLEX_4K, ...fields }] });
    expect(config.TARGETS[0]).toMatchObject(fields);
    expect(afterScanConfigOfEntry(config, config.TARGETS[0] as NonNullable<(typeof config.TARGETS)[0]>)).toMatchObject({
      PLEX_CONFIRM_SCANS: false,
      PLEX_ANALYZE_TYPE: "basic",
      PLEX_ANALYZE_DIRECTORY: true,
      PLEX_EMPTY_TRASH: true,
      PLEX_EMPTY_TRASH_MAX_FILES: 3,
      PLEX_EMPTY_TRASH_ZERO_DELETED: true,
      PLEX_DATABASE_PATH: "/plex4k/com.plexapp.plugins.library.db",
    });
    // The flat target keeps its own settings.
    expect(config.PLEX_CONFIRM_SCANS).toBe(true);
    expect(config.PLEX_ANALYZE_TYPE).toBe("off");
  });

  it("are checked with their dotted paths, and refused on entries that are not Plex", () => {
    const problems = problemsOf({
      TARGETS: [
        { ...PLEX_4K, ANALYZE_TYPE: "full", EMPTY_TRASH_MAX_FILES: -1, CONFIRM_SCANS: "yes" },
        { TYPE: "jellyfin", NAME: "jf", URL: "http://jellyfin:8096", TOKEN: "abc", EMPTY_TRASH: true, DATABASE_PATH: "/x.db" },
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
    expect(
      problemsOf({ TARGETS: [{ TYPE: "jellyfin", NAME: "jf", URL: "http://jellyfin:8096", TOKEN: "abc", EMPTY_TRASH: true }] }),
    ).toEqual(['TARGETS[0].EMPTY_TRASH: only TYPE "plex" takes it (after-scan work is Plex\'s)']);
  });
});
