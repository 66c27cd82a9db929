import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { parseConfigText } from "./parse.js";
import { maskConfig } from "../../src/config/mask.js";
import { PASS, problemsIn } from "./helpers.js";

const problemsOf = (extra: Record<string, unknown>): string[] => problemsIn(JSON.stringify({ ...defaultConfig(PASS), ...extra }));

describe("mount-safety keys", () => {
  it("loads plex_autoscan's file-check and rclone keys as working settings, warning only for the rclone binary (names are decoded in-process)", () => {
    const { config, warnings } = parseConfigText(
      JSON.stringify({
        SERVER_PASS: PASS,
        SERVER_MAX_FILE_CHECKS: 5,
        SERVER_FILE_CHECK_DELAY: 30,
        SERVER_FILE_EXIST_PATH_MAPPINGS: { "/mnt/unionfs/media/": ["/data/"] },
        SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION: true,
        PLEX_EMPTY_TRASH_CONTROL_FILES: ["/mnt/unionfs/mounted.bin"],
        RCLONE: {
          BINARY: "/usr/bin/rclone",
          CONFIG: "",
          CRYPT_MAPPINGS: {},
          RC_CACHE_REFRESH: {
            ENABLED: true,
            RC_URL: "http://localhost:5572",
            FILE_EXISTS_TO_REMOTE_MAPPINGS: { "Media/": ["/mnt/rclone/Media/"] },
          },
        },
      }),
    );
    expect(config.SERVER_MAX_FILE_CHECKS).toBe(5);
    expect(config.SERVER_FILE_CHECK_DELAY).toBe(30);
    expect(config.SERVER_FILE_EXIST_PATH_MAPPINGS).toEqual({ "/mnt/unionfs/media/": ["/data/"] });
    expect(config.SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION).toBe(true);
    expect(config.PLEX_EMPTY_TRASH_CONTROL_FILES).toEqual(["/mnt/unionfs/mounted.bin"]);
    expect(config.RCLONE.RC_CACHE_REFRESH).toEqual({
      ENABLED: true,
      RC_URL: "http://localhost:5572",
      FILE_EXISTS_TO_REMOTE_MAPPINGS: { "Media/": ["/mnt/rclone/Media/"] },
      RC_USER: "",
      RC_PASS: "",
      FS: "",
    });
    expect(config.ANCHORS).toEqual([]);
    expect(warnings.map((w) => w.split(":")[0]).sort()).toEqual(["RCLONE.BINARY"]);
  });

  it("defaults to automatic file checks (SERVER_MAX_FILE_CHECKS unset) 5 s apart, plex_autoscan's exhaustion rule, no anchors and the refresh off", () => {
    const config = defaultConfig(PASS);
    expect(config.ANCHORS).toEqual([]);
    expect("SERVER_MAX_FILE_CHECKS" in config).toBe(false);
    expect([config.SERVER_FILE_CHECK_DELAY, config.SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION]).toEqual([5, false]);
    expect(config.RCLONE.RC_CACHE_REFRESH.ENABLED).toBe(false);
    expect(parseConfigText(JSON.stringify(config)).written).toEqual(config);
  });

  it("reports a relative anchor, an RC_URL that is no URL and a mapping value that is no array at once, with dotted paths", () => {
    const problems = problemsOf({
      ANCHORS: ["/mnt/unionfs/mounted.bin", "mnt/other.bin"],
      SERVER_FILE_EXIST_PATH_MAPPINGS: { "/mnt/unionfs/": "/data/" },
      RCLONE: { RC_CACHE_REFRESH: { RC_URL: "localhost:5572", FILE_EXISTS_TO_REMOTE_MAPPINGS: { "Media/": ["mnt/rclone/"] } } },
    });
    expect(problems).toEqual([
      'ANCHORS[1]: must be an absolute path on this machine, got the string "mnt/other.bin"',
      'SERVER_FILE_EXIST_PATH_MAPPINGS["/mnt/unionfs/"]: must be an array of strings, got the string "/data/"',
      'RCLONE.RC_CACHE_REFRESH.RC_URL: must be an http:// or https:// URL, got "localhost:5572"',
      'RCLONE.RC_CACHE_REFRESH.FILE_EXISTS_TO_REMOTE_MAPPINGS["Media/"][0]: must be an absolute path on this machine, got the string "mnt/rclone/"',
    ]);
  });

  it("reports a relative local key, a relative control file and unknown rclone keys", () => {
    const problems = problemsOf({
      SERVER_FILE_EXIST_PATH_MAPPINGS: { "media/": ["/data/"] },
      PLEX_EMPTY_TRASH_CONTROL_FILES: ["mounted.bin"],
      RCLONE: { RC_CACHE_REFRESH: { ENABLE: true } },
    });
    expect(problems).toEqual([
      'SERVER_FILE_EXIST_PATH_MAPPINGS["media/"]: key must be an absolute path on this machine',
      'PLEX_EMPTY_TRASH_CONTROL_FILES[0]: must be an absolute path on this machine, got the string "mounted.bin"',
      "RCLONE.RC_CACHE_REFRESH.ENABLE: unknown key (did you mean RCLONE.RC_CACHE_REFRESH.ENABLED?)",
    ]);
  });

  it("refuses a refresh that is on without any remote mapping, and '..' in an anchor", () => {
    const problems = problemsOf({ ANCHORS: ["/mnt/../etc"], RCLONE: { RC_CACHE_REFRESH: { ENABLED: true } } });
    expect(problems).toEqual([
      "RCLONE.RC_CACHE_REFRESH.FILE_EXISTS_TO_REMOTE_MAPPINGS: must map at least one remote path to its mount when RCLONE.RC_CACHE_REFRESH.ENABLED is true",
      "ANCHORS[0]: must not contain a '..' segment",
    ]);
  });

  it("rejects a negative or fractional check count", () => {
    expect(problemsOf({ SERVER_MAX_FILE_CHECKS: -1, SERVER_FILE_CHECK_DELAY: -5 }).sort()).toEqual([
      "SERVER_FILE_CHECK_DELAY: must be at least 0, got -5",
      "SERVER_MAX_FILE_CHECKS: must be at least 0, got -1",
    ]);
    expect(problemsOf({ SERVER_MAX_FILE_CHECKS: 2.5 })).toEqual(["SERVER_MAX_FILE_CHECKS: must be a whole number, got 2.5"]);
  });

  it("masks RC_PASS for config show", () => {
    const config = defaultConfig(PASS);
    config.RCLONE.RC_CACHE_REFRESH.RC_PASS = "a-long-rc-password";
    expect(maskConfig(config).RCLONE.RC_CACHE_REFRESH.RC_PASS).toBe("****word");
    expect(config.RCLONE.RC_CACHE_REFRESH.RC_PASS).toBe("a-long-rc-password");
  });
});
