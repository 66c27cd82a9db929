import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LEGACY_KEYS } from "../../src/config/schema.js";
import { nearestName } from "../../src/lib/edit-distance.js";
import { runCli, tempDir } from "../helpers/cli.js";

const PASS = "9c4b81fe2f8a4ac5a1b0c4d1e2f3a4b5";

/** A plex_autoscan config.json as a migrating user has it: every key scanarr ignores, an empty token, one typo. */
const migrated = {
  SERVER_IP: "0.0.0.0",
  SERVER_PORT: 3468,
  SERVER_PASS: PASS,
  SERVER_PATH_MAPPINGS: { "/mnt/unionfs/": ["/home/user/media/fused/"] },
  SERVER_SCAN_DELAI: 180,
  SERVER_USE_SQLITE: true,
  PLEX_LOCAL_URL: "http://localhost:32400",
  PLEX_TOKEN: "",
  PLEX_CHECK_BEFORE_SCAN: true,
  PLEX_WAIT_FOR_EXTERNAL_SCANNERS: true,
  PLEX_FIX_MISMATCHED: false,
  PLEX_FIX_MISMATCHED_LANG: "en",
  PLEX_SECTION_PATH_MAPPINGS: { "1": ["/Movies/"] },
  PLEX_SECTION_PATH_MAPPINGS_WITH_API: false,
  RCLONE: {
    BINARY: "/usr/bin/rclone",
    CONFIG: "/home/user/.config/rclone/rclone.conf",
    CRYPT_MAPPINGS: {},
    RC_CACHE_EXPIRE: { ENABLED: false },
  },
  GOOGLE: { ENABLED: false, POLL_INTERVALL: 60, DISABLE_DISK_FILE_SIZE_CHECK: false },
};

function installWith(config: Record<string, unknown>): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "config"));
  writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
  return dir;
}

describe("scanarr config check", () => {
  it("reports every problem at once, fatal first, then a warning for each ignored plex_autoscan key", async () => {
    const { code, stderr } = await runCli(["--install-dir", installWith(migrated), "config", "check"]);
    expect(code).toBe(2);
    const lines = stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^error: config file .* has 3 problems:$/);
    expect(lines.slice(1, 4)).toEqual([
      "  - SERVER_SCAN_DELAI: unknown key (did you mean SERVER_SCAN_DELAY?)",
      "  - CLOUD.POLL_INTERVALL: unknown key (did you mean CLOUD.POLL_INTERVAL?)",
      expect.stringMatching(/^ {2}- PLEX_TOKEN: must be set when PLEX_SCAN_METHOD is "api"/),
    ]);
    const warnings = lines.slice(4);
    expect(warnings.every((w) => w.startsWith("warning: "))).toBe(true);
    expect(warnings).toContainEqual(expect.stringMatching(/^warning: GOOGLE: read as CLOUD/));
    // Every ignored key is named once, and says what replaces it or what stops working.
    for (const key of LEGACY_KEYS) {
      const said = warnings.filter((w) => w.startsWith(`warning: ${key}: `));
      expect(said, key).toHaveLength(1);
      if (key === "RCLONE.CONFIG" || key === "RCLONE.CRYPT_MAPPINGS") continue;
      expect(said[0], key).not.toContain("plex_autoscan setting not used by scanarr; ignored");
    }
    expect(warnings.find((w) => w.startsWith("warning: RCLONE.RC_CACHE_EXPIRE:"))).toMatch(/RC_CACHE_REFRESH.*not refreshed/);
    expect(warnings.find((w) => w.startsWith("warning: SERVER_USE_SQLITE:"))).toMatch(/always a SQLite database/);
    expect(stderr).not.toContain(PASS);
  });

  it("still checks the keys beside a broken one: a rule of two keys and the token are reported with a type error", async () => {
    const { code, stderr } = await runCli([
      "--install-dir",
      installWith({ SERVER_PASS: PASS, SERVER_PORT: "3468", SERVER_USERNAME: "admin", PLEX_TOKEN: "" }),
      "config",
      "check",
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('  - SERVER_PORT: must be a number, got the string "3468"');
    expect(stderr).toContain("  - SERVER_PASSWORD_HASH: must be set when SERVER_USERNAME is (run: scanarr passwd)");
    expect(stderr).toMatch(/ {2}- PLEX_TOKEN: must be set/);
  });

  it("says the file is fine, with its warnings, when nothing is fatal", async () => {
    const { code, stdout, stderr } = await runCli([
      "--install-dir",
      installWith({ SERVER_PASS: PASS, PLEX_TOKEN: "abc123", SERVER_USE_SQLITE: true }),
      "config",
      "check",
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^config OK: /);
    expect(stderr).toMatch(/^warning: SERVER_USE_SQLITE: ignored: scanarr's queue is always a SQLite database/);
  });
});

describe("the near miss of an unknown key", () => {
  it("is the key one or a few edits away, case and underscores aside, and nothing when none is close", () => {
    const keys = ["SERVER_SCAN_DELAY", "SERVER_PORT", "SERVER_IP", "PLEX_TOKEN"];
    expect(nearestName("SERVER_SCAN_DELAI", keys)).toBe("SERVER_SCAN_DELAY");
    expect(nearestName("server_port", keys)).toBe("SERVER_PORT");
    expect(nearestName("SERVERPORT", keys)).toBe("SERVER_PORT");
    expect(nearestName("PLEX_TOKNE", keys)).toBe("PLEX_TOKEN");
    expect(nearestName("SERVER_IPS", keys)).toBe("SERVER_IP");
    expect(nearestName("FOO", keys)).toBeUndefined();
    expect(nearestName("SERVER_SCAN_PRIORITIES", keys)).toBeUndefined();
  });
});
