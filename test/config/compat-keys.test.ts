import { describe, expect, it } from "vitest";
import { parseConfigText } from "./parse.js";
import { PASS, problemsIn } from "./helpers.js";

const problemsOf = (extra: Record<string, unknown>): string[] =>
  problemsIn(JSON.stringify({ SERVER_PASS: PASS, SERVER_PATH_MAPPINGS: {}, ...extra }));

describe("the login, TRIGGERS and WATCH keys", () => {
  it("load with their defaults when absent", () => {
    const { config } = parseConfigText(JSON.stringify({ SERVER_PASS: PASS }));
    expect(config).toMatchObject({ SERVER_USERNAME: "", SERVER_PASSWORD_HASH: "", TRIGGERS: [], WATCH: [] });
  });

  it("report every shape problem with its dotted path", () => {
    expect(
      problemsOf({
        SERVER_PASSWORD_HASH: "plaintext",
        TRIGGERS: [{ NAME: "sonarr 4k", TYPE: "sportarr" }, { TYPE: "radarr" }, "radarr"],
        WATCH: [{ PATHS: "/srv", MODE: "inotify", MIN_AGE: -1, INTERVAL: 0.5, DETECT: "guess", EXTRA: 1 }],
      }),
    ).toEqual([
      "SERVER_PASSWORD_HASH: must be an argon2id hash as written by `scanarr passwd` (or empty)",
      "TRIGGERS[0].NAME: must be one or more of A-Z a-z 0-9 . _ ~ - (it is the last segment of /triggers/<NAME>)",
      'TRIGGERS[0].TYPE: must be one of "sonarr", "radarr", "lidarr", "readarr", "manual", got the string "sportarr"',
      "TRIGGERS[1].NAME: missing; it is required",
      'TRIGGERS[2]: must be an object, got the string "radarr"',
      'WATCH[0].PATHS: must be an array of strings, got the string "/srv"',
      'WATCH[0].MODE: must be one of "events", "poll", got the string "inotify"',
      "WATCH[0].MIN_AGE: must be at least 0, got -1",
      "WATCH[0].INTERVAL: must be a whole number, got 0.5",
      'WATCH[0].DETECT: must be one of "auto", "mtime", "listing", got the string "guess"',
      "WATCH[0].EXTRA: unknown key",
    ]);
  });

  it("report what needs several keys: a half login, reused or reserved names, overlapping or relative folders, bad patterns", () => {
    expect(
      problemsOf({
        SERVER_USERNAME: "arr:1",
        TRIGGERS: [
          { NAME: "a-train", TYPE: "manual" },
          { NAME: "tv", TYPE: "sonarr" },
          { NAME: "tv", TYPE: "radarr" },
        ],
        WATCH: [{ PATHS: ["/srv/media", "media/tv"], IGNORE: ["(unclosed"] }, { PATHS: ["/srv/media/TV"] }],
      }),
    ).toEqual([
      "SERVER_PASSWORD_HASH: must be set when SERVER_USERNAME is (run: scanarr passwd)",
      "SERVER_USERNAME: must not contain a colon (HTTP Basic cannot carry it)",
      'TRIGGERS[0].NAME: "a-train" is built in and cannot be redefined',
      'TRIGGERS[2].NAME: "tv" is already defined by TRIGGERS[1]',
      'WATCH[0].PATHS[1]: must be an absolute path, got "media/tv"',
      expect.stringMatching(/^WATCH\[0\]\.IGNORE\[0\]: not a valid regular expression: /),
      "WATCH[1].PATHS[0]: overlaps WATCH[0].PATHS[0] (/srv/media); a folder can be watched once",
    ]);
  });
});
