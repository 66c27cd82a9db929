import { ALL_REQUIREMENTS } from "../../src/config/rules.js";
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { loadConfig, parseConfigText } from "./parse.js";
import { tempDir } from "../helpers/cli.js";
import { problemsIn, refused } from "./helpers.js";

const problemsOf = (text: string): string[] => refused(problemsIn(text, ALL_REQUIREMENTS));

const valid = () => ({ ...defaultConfig("0123456789abcdef0123456789abcdef"), PLEX_TOKEN: "plex-token-0123" });

describe("loadConfig on first run", () => {
  it("writes the starting config with mode 0600 and a random 32-hex pass when asked to create it", async () => {
    const file = path.join(tempDir(), "config", "config.json");
    const loaded = await loadConfig(file, { create: true });
    expect(loaded.created).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    expect(written.SERVER_PASS).toMatch(/^[0-9a-f]{32}$/);
    expect(written._PLEX_TOKEN).toMatch(/EDIT/);
    expect(loaded.config.SERVER_PORT).toBe(3468);
    expect(Object.keys(loaded.config).some((key) => key.startsWith("_"))).toBe(false);
  });

  it("loads the file it wrote without changes on the next run", async () => {
    const file = path.join(tempDir(), "config.json");
    const first = await loadConfig(file, { create: true });
    const second = await loadConfig(file, { require: [] });
    expect(second.created).toBe(false);
    expect(second.config).toEqual(first.config);
  });

  it("writes nothing and says how to start when the file is missing and creating was not asked for", async () => {
    const file = path.join(tempDir(), "config", "config.json");
    await expect(loadConfig(file)).rejects.toThrow(/does not exist; run `scanarr init`/);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(path.dirname(file))).toBe(false);
  });
});

describe("defaults", () => {
  it("fills keys missing from a minimal file with documented defaults", () => {
    const { config } = parseConfigText(JSON.stringify({ SERVER_PASS: "abcdefgh1234", PLEX_TOKEN: "t0k3n", CLOUD: { ENABLED: true } }));
    expect(config.SERVER_IP).toBe("0.0.0.0");
    expect(config.PLEX_LOCAL_URL).toBe("http://localhost:32400");
    expect(config.PLEX_SCAN_METHOD).toBe("api");
    expect(config.CLOUD.ENABLED).toBe(true);
    expect(config.CLOUD.POLL_INTERVAL).toBe(120);
    expect(config.CLOUD.TOKEN_URL).toBe("https://oauth2.googleapis.com/token");
  });

  it("replaces example path mappings instead of merging them", () => {
    const { config } = parseConfigText(
      JSON.stringify({ SERVER_PASS: "abcdefgh1234", PLEX_TOKEN: "t0k3n", SERVER_PATH_MAPPINGS: { "/tv/": ["/mnt/tv/"] } }),
    );
    expect(config.SERVER_PATH_MAPPINGS).toEqual({ "/tv/": ["/mnt/tv/"] });
  });

  it("does not care about the order of keys inside CLOUD", () => {
    const cloud = valid().CLOUD;
    const reversed = Object.fromEntries(Object.entries(cloud).reverse());
    const a = parseConfigText(JSON.stringify({ ...valid(), CLOUD: cloud })).config;
    const b = parseConfigText(JSON.stringify({ ...valid(), CLOUD: reversed })).config;
    expect(b).toEqual(a);
  });
});

describe("a plex_autoscan config.json", () => {
  const plexAutoscan = {
    SERVER_IP: "0.0.0.0",
    SERVER_PORT: 3468,
    SERVER_PASS: "9c4b81fe2f8a4ac5a1b0c4d1e2f3a4b5",
    SERVER_PATH_MAPPINGS: { "/mnt/unionfs/": ["/home/user/media/fused/", "My Drive/"] },
    SERVER_SCAN_DELAY: 180,
    SERVER_MAX_FILE_CHECKS: 10,
    SERVER_USE_SQLITE: true,
    SERVER_ALLOW_MANUAL_SCAN: false,
    SERVER_IGNORE_LIST: ["/.grab/", ".DS_Store", "Thumbs.db"],
    SERVER_SCAN_PRIORITIES: { "0": ["/Movies/"], "1": ["/TV/"] },
    PLEX_USER: "plex",
    PLEX_SCANNER: "/usr/lib/plexmediaserver/Plex\\ Media\\ Scanner",
    PLEX_SUPPORT_DIR: "/var/lib/plexmediaserver/Library/Application\\ Support",
    PLEX_LD_LIBRARY_PATH: "/usr/lib/plexmediaserver/lib",
    PLEX_LOCAL_URL: "http://localhost:32400",
    PLEX_TOKEN: "",
    PLEX_EMPTY_TRASH: false,
    USE_SUDO: true,
    USE_DOCKER: false,
    DOCKER_NAME: "plex",
    RCLONE: { BINARY: "/usr/bin/rclone" },
    GOOGLE: {
      ENABLED: false,
      CLIENT_ID: "",
      CLIENT_SECRET: "",
      ALLOWED: {
        FILE_PATHS: ["My Drive/Media/Movies/"],
        FILE_EXTENSIONS: true,
        FILE_EXTENSIONS_LIST: ["mkv"],
        MIME_TYPES: true,
        MIME_TYPES_LIST: ["video"],
      },
      TEAMDRIVE: false,
      TEAMDRIVES: [],
      POLL_INTERVAL: 60,
      SHOW_CACHE_LOGS: false,
      DISABLE_DISK_FILE_SIZE_CHECK: false,
    },
  };

  it("loads, reading GOOGLE as CLOUD with a warning naming the rename", () => {
    const loaded = parseConfigText(JSON.stringify(plexAutoscan), "config.json", []);
    expect(loaded.config.CLOUD.POLL_INTERVAL).toBe(60);
    expect(loaded.config.CLOUD.ALLOWED.FILE_EXTENSIONS_LIST).toEqual(["mkv"]);
    expect(loaded.warnings.some((w) => w.includes("GOOGLE") && w.includes("CLOUD"))).toBe(true);
  });

  it("asks for PLEX_TOKEN, which plex_autoscan's scanner did without, and loads once it is set", () => {
    expect(problemsOf(JSON.stringify(plexAutoscan))).toEqual([
      expect.stringMatching(/^PLEX_TOKEN: must be set when PLEX_SCAN_METHOD is "api"/),
    ]);
    expect(parseConfigText(JSON.stringify({ ...plexAutoscan, PLEX_TOKEN: "abc123" })).config.PLEX_TOKEN).toBe("abc123");
  });

  it("unescapes shell-escaped paths", () => {
    const { config } = parseConfigText(JSON.stringify(plexAutoscan), "config.json", []);
    expect(config.PLEX_SCANNER).toBe("/usr/lib/plexmediaserver/Plex Media Scanner");
    expect(config.PLEX_SUPPORT_DIR).toBe("/var/lib/plexmediaserver/Library/Application Support");
  });

  it("warns once for each key it does not use, without failing", () => {
    const { warnings } = parseConfigText(JSON.stringify(plexAutoscan), "config.json", []);
    for (const key of ["SERVER_USE_SQLITE", "RCLONE.BINARY", "CLOUD.DISABLE_DISK_FILE_SIZE_CHECK"]) {
      expect(warnings.filter((w) => w.startsWith(`${key}:`))).toHaveLength(1);
    }
  });
});

describe("validation", () => {
  it("reports every mistake at once with its dotted path", () => {
    const config = { ...valid(), SERVER_PORT: "3468", SERVER_PATH_MAPPINGS: { "/data/Movies/": ["/mnt/Movies/", 7] }, BOGUS: 1 } as Record<
      string,
      unknown
    >;
    (config.CLOUD as Record<string, unknown>).ALLOWED = { ...valid().CLOUD.ALLOWED, FILE_PATHS: ["a", "b", false] };
    const problems = problemsOf(JSON.stringify(config));
    expect(problems).toContain('SERVER_PATH_MAPPINGS["/data/Movies/"][1]: must be a string, got number 7');
    expect(problems.some((p) => p.startsWith("SERVER_PORT: must be a number"))).toBe(true);
    expect(problems).toContain("BOGUS: unknown key");
    expect(problems.some((p) => p.startsWith("CLOUD.ALLOWED.FILE_PATHS[2]: must be a string"))).toBe(true);
    expect(problems).toHaveLength(4);
  });

  it("rejects bad values: ports, URLs, enums, passes, priorities, IPs", () => {
    const problems = problemsOf(
      JSON.stringify({
        ...valid(),
        SERVER_PORT: 70000,
        PLEX_LOCAL_URL: "localhost:32400",
        PLEX_SCAN_METHOD: "magic",
        SERVER_PASS: "a/b",
        SERVER_SCAN_PRIORITIES: { high: ["/Movies/"] },
        SERVER_IP: "my box",
        SERVER_SCAN_DELAY: -1,
      }),
    );
    expect(problems.map((p) => p.split(":")[0])).toEqual(
      expect.arrayContaining([
        "SERVER_PORT",
        "PLEX_LOCAL_URL",
        "PLEX_SCAN_METHOD",
        "SERVER_PASS",
        'SERVER_SCAN_PRIORITIES["high"]',
        "SERVER_IP",
        "SERVER_SCAN_DELAY",
      ]),
    );
  });

  it("reports a prefix mapped to two keys and a mapping with a '..' segment", () => {
    const problems = problemsOf(
      JSON.stringify({ ...valid(), SERVER_PATH_MAPPINGS: { "/a/": ["/mnt/x/"], "/b/": ["/mnt/x"], "/c/": ["/mnt/../y/"] } }),
    );
    expect(problems.some((p) => p.includes('also listed under "/a/"'))).toBe(true);
    expect(problems.some((p) => p.includes("'..' segment"))).toBe(true);
  });

  it("reports invalid JSON with line and column", () => {
    const problems = problemsOf('{\n  "SERVER_PORT": 3468,\n  "SERVER_IP": "0.0.0.0"\n  "X": 1\n}');
    expect(problems[0]).toMatch(/line 4, column 3/);
  });

  it("reports a top level that is not an object", () => {
    expect(problemsOf("[]")).toEqual(["the top level must be a JSON object"]);
  });
});

describe("file permissions", () => {
  it("warns when the config file is readable by others", async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "config.json");
    writeFileSync(file, JSON.stringify(valid()), { mode: 0o644 });
    const loaded = await loadConfig(file);
    expect(loaded.warnings.some((w) => w.includes("chmod 600"))).toBe(true);
  });
});
