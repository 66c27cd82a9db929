import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { parseConfigText } from "./parse.js";
import { problemsIn } from "./helpers.js";

const valid = () => defaultConfig("0123456789abcdef0123456789abcdef");

const problemsOf = (config: Record<string, unknown>): string[] => problemsIn(JSON.stringify(config));

/** The after-scan keys as a plex_autoscan config.json holds them. */
const fromPlexAutoscan = {
  PLEX_EMPTY_TRASH: true,
  PLEX_EMPTY_TRASH_MAX_FILES: 50,
  PLEX_EMPTY_TRASH_ZERO_DELETED: true,
  PLEX_ANALYZE_TYPE: "deep",
  PLEX_ANALYZE_DIRECTORY: true,
  RUN_COMMAND_BEFORE_SCAN: "/opt/scripts/before.sh",
  RUN_COMMAND_AFTER_SCAN: "",
};

describe("after-scan keys", () => {
  it("takes plex_autoscan's values as they are, without an 'ignored' warning", () => {
    const { config, warnings } = parseConfigText(JSON.stringify({ ...valid(), ...fromPlexAutoscan }));
    expect(config).toMatchObject(fromPlexAutoscan);
    for (const key of Object.keys(fromPlexAutoscan)) expect(warnings.filter((w) => w.startsWith(`${key}:`))).toEqual([]);
  });

  it("confirms scans by default and leaves analyze, empty trash and hooks off", () => {
    const { config } = parseConfigText(JSON.stringify({ SERVER_PASS: valid().SERVER_PASS }));
    expect(config).toMatchObject({
      PLEX_CONFIRM_SCANS: true,
      PLEX_CONFIRM_POLL_INTERVAL: 10,
      PLEX_CONFIRM_MAX_WAIT: 1800,
      PLEX_CONFIRM_RESCAN_DELAY: 120,
      PLEX_ANALYZE_TYPE: "off",
      PLEX_EMPTY_TRASH: false,
      PLEX_EMPTY_TRASH_MAX_FILES: 100,
      RUN_COMMAND_BEFORE_SCAN: "",
      RUN_COMMAND_AFTER_SCAN: "",
      RUN_COMMAND_TIMEOUT: 600,
    });
  });

  it("accepts a hook as an argv array", () => {
    const hook = ["/usr/bin/curl", "-fsS", "https://example.invalid/hook"];
    expect(parseConfigText(JSON.stringify({ ...valid(), RUN_COMMAND_AFTER_SCAN: hook })).config.RUN_COMMAND_AFTER_SCAN).toEqual(hook);
  });

  it("reports every bad after-scan value with its dotted path, all at once", () => {
    const problems = problemsOf({
      ...valid(),
      PLEX_ANALYZE_TYPE: "full",
      PLEX_EMPTY_TRASH_MAX_FILES: -1,
      PLEX_CONFIRM_POLL_INTERVAL: 0,
      RUN_COMMAND_BEFORE_SCAN: 7,
      RUN_COMMAND_AFTER_SCAN: ["", "x"],
      RUN_COMMAND_TIMEOUT: 1.5,
    });
    expect(problems).toEqual([
      "PLEX_CONFIRM_POLL_INTERVAL: must be at least 1, got 0",
      'PLEX_ANALYZE_TYPE: must be one of "off", "basic", "deep", got the string "full"',
      "PLEX_EMPTY_TRASH_MAX_FILES: must be at least 0, got -1",
      "RUN_COMMAND_BEFORE_SCAN: must be a string (run with /bin/sh -c) or an array of strings (program and arguments), got number 7",
      "RUN_COMMAND_AFTER_SCAN[0]: must name the program to run",
      "RUN_COMMAND_TIMEOUT: must be a whole number, got 1.5",
    ]);
  });

  it("says specifically that PLEX_FIX_MISMATCHED is not supported, and why", () => {
    const { warnings } = parseConfigText(JSON.stringify({ ...valid(), PLEX_FIX_MISMATCHED: true, PLEX_FIX_MISMATCHED_LANG: "en" }));
    const fix = warnings.filter((w) => w.startsWith("PLEX_FIX_MISMATCHED:"));
    expect(fix).toHaveLength(1);
    expect(fix[0]).toContain("not supported by scanarr");
    expect(fix[0]).toContain("legacy agents");
    expect(warnings.filter((w) => w.startsWith("PLEX_FIX_MISMATCHED_LANG:"))[0]).toContain("not supported");
  });
});
