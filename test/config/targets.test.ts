import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { maskConfig } from "../../src/config/mask.js";
import { secretLogPaths } from "../../src/config/secrets.js";
import { createLogger } from "../../src/lib/logger.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { load, PASS, problemsOf } from "./helpers.js";

const JELLYFIN = { TYPE: "jellyfin", NAME: "jf", URL: "http://jellyfin:8096", TOKEN: "0123456789abcdef" };

describe("TARGETS", () => {
  it("is empty by default, and PLEX_ENABLED true: a plex_autoscan file keeps its single Plex target", () => {
    const config = load({});
    expect(config.TARGETS).toEqual([]);
    expect(config.PLEX_ENABLED).toBe(true);
  });

  it("fills an entry's optional fields with their defaults", () => {
    expect(load({ TARGETS: [JELLYFIN] }).TARGETS).toEqual([{ ...JELLYFIN, USERNAME: "", PASSWORD: "", PATH_MAPPINGS: {}, ENABLED: true }]);
  });

  it("accepts every type with its credentials and path mappings", () => {
    const targets = [
      { ...JELLYFIN, PATH_MAPPINGS: { "/media/": ["/data/"] } },
      { TYPE: "emby", NAME: "emby", URL: "http://emby:8096/emby", TOKEN: "abcdef123456", ENABLED: false },
      { TYPE: "autoscan", NAME: "chain", URL: "https://autoscan.example/", USERNAME: "u", PASSWORD: "p@ss word" },
      { TYPE: "autoscan", NAME: "open-chain", URL: "http://10.0.0.2:3030" },
      { TYPE: "plex", NAME: "plex-4k", URL: "http://plex4k:32400", TOKEN: "xyz" },
    ];
    expect(load({ TARGETS: targets }).TARGETS.map((t) => t.NAME)).toEqual(["jf", "emby", "chain", "open-chain", "plex-4k"]);
  });

  it("reports every shape problem at once with its dotted path", () => {
    const problems = problemsOf({
      TARGETS: [
        JELLYFIN,
        { TYPE: "kodi", NAME: "", URL: "jellyfin:8096", ENABLE: true },
        "emby",
        { NAME: "x", PATH_MAPPINGS: { "/m/": "/d/" } },
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'TARGETS[1].TYPE: must be one of "plex", "jellyfin", "emby", "autoscan", "tdarr", "sonarr", "radarr", "command", "audiobookshelf", "fileflows", got the string "kodi"',
        "TARGETS[1].NAME: must not be empty",
        'TARGETS[1].URL: must be an http:// or https:// URL, got "jellyfin:8096"',
        "TARGETS[1].ENABLE: unknown key (did you mean TARGETS[1].ENABLED?)",
        "TARGETS[2]: must be an object, got a string",
        "TARGETS[3].TYPE: missing; it is required",
        'TARGETS[3].PATH_MAPPINGS["/m/"]: must be an array of strings, got the string "/d/"',
      ]),
    );
    expect(problems).toHaveLength(7);
  });

  it("reports a TARGETS that is not an array", () => {
    expect(problemsOf({ TARGETS: { jf: JELLYFIN } })).toEqual(["TARGETS: must be an array, got an object"]);
  });

  it("reports what each type needs, names taken twice, and URLs carrying credentials", () => {
    const problems = problemsOf({
      TARGETS: [
        { ...JELLYFIN, TOKEN: "" },
        { TYPE: "emby", NAME: "JF", URL: "http://emby:8096", TOKEN: "k e y" },
        { TYPE: "autoscan", NAME: "chain", URL: "http://u:p@autoscan:3030", TOKEN: "t", USERNAME: "a:b" },
        { TYPE: "plex", NAME: "plex", URL: "http://plex:32400/?X-Plex-Token=abc", USERNAME: "u" },
      ],
    });
    expect(problems).toEqual([
      'TARGETS[0].TOKEN: must be set for TYPE "jellyfin" (an API key from the server\'s dashboard)',
      'TARGETS[1].NAME: "JF" is already the name of TARGETS[0]; names must be unique',
      "TARGETS[1].TOKEN: must not contain spaces, quotes or control characters",
      'TARGETS[2].TOKEN: not used by TYPE "autoscan"; use USERNAME and PASSWORD',
      "TARGETS[2].PASSWORD: must be set when USERNAME is",
      'TARGETS[2].USERNAME: must not contain ":"',
      "TARGETS[2].URL: must not contain a user name or password; use TARGETS[2].USERNAME and TARGETS[2].PASSWORD",
      'TARGETS[3].NAME: "plex" is already the name of the Plex target of the PLEX_* keys; names must be unique',
      'TARGETS[3].USERNAME: only TYPEs "autoscan" and "audiobookshelf" use USERNAME and PASSWORD; use TOKEN',
      "TARGETS[3].URL: must not contain a query string; put the credential in TARGETS[3].TOKEN",
    ]);
  });

  it("refuses an entry of a server TYPE without a URL (only a command needs none)", () => {
    expect(problemsOf({ TARGETS: [{ TYPE: "emby", NAME: "emby", TOKEN: "abcdef123456" }] })).toEqual([
      'TARGETS[0].URL: must be set for TYPE "emby"',
    ]);
  });

  it("lets an entry take the name plex once the flat Plex target is turned off", () => {
    const config = load({ PLEX_ENABLED: false, TARGETS: [{ TYPE: "plex", NAME: "plex", URL: "http://plex:32400" }] });
    expect(config.TARGETS[0]?.NAME).toBe("plex");
  });

  it("checks PATH_MAPPINGS like SERVER_PATH_MAPPINGS, under the entry's own path", () => {
    const problems = problemsOf({
      TARGETS: [{ ...JELLYFIN, PATH_MAPPINGS: { "/media/": ["/data/"], "/m2/": ["/data"], "/x/": ["/a/../b"] } }],
    });
    expect(problems).toEqual([
      'TARGETS[0].PATH_MAPPINGS["/m2/"][0]: "/data" is also listed under "/media/"; a prefix can map to one key only',
      `TARGETS[0].PATH_MAPPINGS: TARGETS[0].PATH_MAPPINGS["/x/"] entry "/a/../b" contains a '..' segment`,
    ]);
  });

  it("refuses a config where no target is left", () => {
    expect(problemsOf({ PLEX_ENABLED: false, TARGETS: [{ ...JELLYFIN, ENABLED: false }] })).toEqual([
      "PLEX_ENABLED: is false and no TARGETS entry is enabled; scans would go nowhere",
    ]);
  });
});

describe("TARGETS secrets", () => {
  const config = () =>
    load({
      TARGETS: [
        { ...JELLYFIN, TOKEN: "jellyfin-token-SECRET-1234" },
        { TYPE: "autoscan", NAME: "chain", URL: "http://autoscan:3030", USERNAME: "me", PASSWORD: "autoscan-password-WXYZ" },
      ],
    });

  it("are masked to their last four characters by config show's masking", () => {
    const masked = maskConfig(config());
    expect(masked.TARGETS.map((t) => [t.TOKEN, t.USERNAME, t.PASSWORD])).toEqual([
      ["****1234", "", ""],
      ["", "me", "****WXYZ"],
    ]);
    expect(JSON.stringify(masked)).not.toMatch(/jellyfin-token-SECRET|autoscan-password/);
  });

  it("never reach a log line, even when the whole config is logged", () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // The CLI builds its logger with the schema's secrets (cli/bootstrap.ts).
    const logger = createLogger({ format: "json", destination, redact: secretLogPaths() });
    const loaded = config();
    logger.info({ config: loaded }, "config");
    logger.info({ TARGETS: loaded.TARGETS }, "targets");
    expect(lines).toHaveLength(2);
    expect(lines.join("")).not.toMatch(/jellyfin-token-SECRET|autoscan-password/);
  });
});

describe("scanarr config with TARGETS", () => {
  function install(config: unknown): string {
    const dir = tempDir();
    mkdirSync(path.join(dir, "config"));
    writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
    return dir;
  }

  it("shows TARGETS with tokens and passwords masked, as text and JSON", async () => {
    const dir = install({
      SERVER_PASS: PASS,
      TARGETS: [
        { ...JELLYFIN, TOKEN: "jellyfin-token-SECRET-1234" },
        { TYPE: "autoscan", NAME: "chain", URL: "http://autoscan:3030", USERNAME: "me", PASSWORD: "autoscan-password-WXYZ" },
      ],
    });
    const text = await runCli(["--install-dir", dir, "config", "show"]);
    const json = await runCli(["--install-dir", dir, "config", "show", "--json"]);
    expect([text.code, json.code]).toEqual([0, 0]);
    expect(text.stdout).toContain("****1234");
    expect((JSON.parse(json.stdout) as { TARGETS: Array<{ PASSWORD: string }> }).TARGETS[1]?.PASSWORD).toBe("****WXYZ");
    for (const out of [text.stdout, json.stdout, text.stderr, json.stderr])
      expect(out).not.toMatch(/jellyfin-token-SECRET|autoscan-password/);
  });

  it("exits 2 naming every bad entry field with its dotted path", async () => {
    const dir = install({ SERVER_PASS: PASS, TARGETS: [JELLYFIN, { TYPE: "emby", NAME: "jf", URL: "ftp://emby" }] });
    const { code, stderr } = await runCli(["--install-dir", dir, "config", "check"]);
    expect(code).toBe(2);
    expect(stderr).toContain('TARGETS[1].URL: must be an http:// or https:// URL, got "ftp://emby"');
  });
});
