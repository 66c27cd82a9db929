import { describe, expect, it } from "vitest";
import { parseConfigText } from "./parse.js";
import { PASS, problemsOf } from "./helpers.js";

describe("rclone remote keys", () => {
  it("reads plex_autoscan's RCLONE.CRYPT_MAPPINGS and RCLONE.CONFIG as working settings, with no 'ignored' warning", () => {
    const { config, warnings } = parseConfigText(
      JSON.stringify({
        SERVER_PASS: PASS,
        GOOGLE: { ENABLED: true, CLIENT_ID: "id", CLIENT_SECRET: "secret", ALLOWED: { FILE_PATHS: ["My Drive/encrypt/Media/"] } },
        RCLONE: {
          BINARY: "/usr/bin/rclone",
          CONFIG: "/home/seed/.config/rclone/rclone.conf",
          CRYPT_MAPPINGS: { "My Drive/encrypt/": ["gcrypt:"] },
        },
      }),
    );
    expect(config.RCLONE.CRYPT_MAPPINGS).toEqual({ "My Drive/encrypt/": ["gcrypt:"] });
    expect(config.RCLONE.CONFIG).toBe("/home/seed/.config/rclone/rclone.conf");
    expect(warnings.filter((w) => w.startsWith("RCLONE.CONFIG") || w.startsWith("RCLONE.CRYPT_MAPPINGS"))).toEqual([]);
    expect(warnings).toContain(
      "RCLONE.BINARY: not needed, so it is ignored: scanarr decodes RCLONE.CRYPT_MAPPINGS names itself, with the passwords in RCLONE.CONFIG, instead of running rclone cryptdecode",
    );
  });

  it("reads CLOUD.RCLONE_REMOTE, empty by default", () => {
    const { config } = parseConfigText(JSON.stringify({ SERVER_PASS: PASS, CLOUD: { ENABLED: true, RCLONE_REMOTE: "gdrive:Media" } }));
    expect(config.CLOUD.RCLONE_REMOTE).toBe("gdrive:Media");
    expect(parseConfigText(JSON.stringify({ SERVER_PASS: PASS })).config.CLOUD.RCLONE_REMOTE).toBe("");
  });

  it("reports a remote without a colon", () => {
    expect(problemsOf({ CLOUD: { RCLONE_REMOTE: "gcrypt" } })).toEqual([
      expect.stringMatching(/^CLOUD\.RCLONE_REMOTE: must be an rclone remote such as "gcrypt:"/),
    ]);
  });

  it("reports a mapping to two remotes and one to a path, at once", () => {
    expect(problemsOf({ RCLONE: { CRYPT_MAPPINGS: { "My Drive/a/": ["gcrypt:", "other:"], "My Drive/b/": ["/mnt/b"] } } })).toEqual([
      'RCLONE.CRYPT_MAPPINGS["My Drive/a/"]: must name exactly one crypt remote, such as ["gcrypt:"]',
      'RCLONE.CRYPT_MAPPINGS["My Drive/b/"][0]: must be an rclone remote such as "gcrypt:", got "/mnt/b"',
    ]);
  });

  it("refuses CLOUD.SERVICE_ACCOUNT_FILE beside CLOUD.RCLONE_REMOTE", () => {
    expect(problemsOf({ CLOUD: { RCLONE_REMOTE: "gcrypt:", SERVICE_ACCOUNT_FILE: "/sa.json" } })).toEqual([
      expect.stringMatching(/^CLOUD\.SERVICE_ACCOUNT_FILE: must be empty when CLOUD\.RCLONE_REMOTE is set/),
    ]);
  });
});
