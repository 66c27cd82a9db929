import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { overlayEnv, RESERVED_VARIABLES } from "../../src/config/env-overlay.js";
import { withVariable } from "../../src/config/env-sources.js";
import { envShapeOf } from "../../src/config/env-shape.js";
import { ConfigError, loadConfig, parseConfigText } from "../../src/config/load.js";
import { configSchema } from "../../src/config/target-kind.js";
import { hookEnvironment } from "../../src/hooks/hook-env.js";
import { TARGET_CONFIGS } from "../../src/targets/registry.js";
import { PASS } from "./helpers.js";

const shape = envShapeOf(configSchema(TARGET_CONFIGS));
const readFile = (file: string) => readFileSync(file, "utf8");
const overlay = (env: Record<string, string>, raw: Record<string, unknown> = {}) => overlayEnv(raw, env, shape, readFile);

function secretFile(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "scanarr-env-")), "secret");
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

/** Loads a config.json text as scanarr does with `env`; the problems when it is refused. */
function loadWith(file: Record<string, unknown>, env: Record<string, string>) {
  try {
    return { loaded: parseConfigText(JSON.stringify({ SERVER_PASS: PASS, ...file }), TARGET_CONFIGS, "config.json", ["server"], env) };
  } catch (error) {
    if (error instanceof ConfigError) return { problems: error.problems };
    throw error;
  }
}

describe("overlayEnv: values", () => {
  it.each<{ what: string; env: Record<string, string>; expected: Record<string, unknown> }>([
    {
      what: "booleans, whole numbers, numbers and strings by the key's kind",
      env: {
        SCANARR_USE_DOCKER: "YES",
        SCANARR_USE_SUDO: "0",
        SCANARR_PLEX_EMPTY_TRASH: "False",
        SCANARR_SERVER_PORT: " 4000 ",
        SCANARR_SERVER_SCAN_DELAY: "2.5",
        SCANARR_DOCKER_NAME: ' "plex" ',
      },
      expected: {
        USE_DOCKER: true,
        USE_SUDO: false,
        PLEX_EMPTY_TRASH: false,
        SERVER_PORT: 4000,
        SERVER_SCAN_DELAY: 2.5,
        DOCKER_NAME: ' "plex" ',
      },
    },
    {
      what: "lists and objects whole as JSON, and a command as a string or a JSON argv",
      env: {
        SCANARR_ANCHORS: '["/mnt/a/.anchor"]',
        SCANARR_SERVER_PATH_MAPPINGS: '{"/data/TV/": ["/tv/"]}',
        SCANARR_RUN_COMMAND_BEFORE_SCAN: "echo hi",
        SCANARR_RUN_COMMAND_AFTER_SCAN: '["/bin/notify", "done"]',
      },
      expected: {
        ANCHORS: ["/mnt/a/.anchor"],
        SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"] },
        RUN_COMMAND_BEFORE_SCAN: "echo hi",
        RUN_COMMAND_AFTER_SCAN: ["/bin/notify", "done"],
      },
    },
  ])("reads $what", ({ env, expected }) => {
    const { config, problems } = overlay(env);
    expect(problems).toEqual([]);
    expect(config).toEqual(expected);
  });

  it("sets one nested key with __ and keeps the file's others", () => {
    const raw = { CLOUD: { ENABLED: false, POLL_INTERVAL: 60 } };
    const { config, sources } = overlay({ SCANARR_CLOUD__ENABLED: "true", SCANARR_CLOUD__ALLOWED__MIME_TYPES: "no" }, raw);
    expect(config).toEqual({ CLOUD: { ENABLED: true, POLL_INTERVAL: 60, ALLOWED: { MIME_TYPES: false } } });
    expect(raw.CLOUD.ENABLED).toBe(false);
    expect(sources.leaves).toEqual({
      "CLOUD.ENABLED": "env SCANARR_CLOUD__ENABLED",
      "CLOUD.POLL_INTERVAL": "file",
      "CLOUD.ALLOWED.MIME_TYPES": "env SCANARR_CLOUD__ALLOWED__MIME_TYPES",
    });
  });

  it("sets one field of an existing list entry by its index", () => {
    const raw = { TARGETS: [{ TYPE: "jellyfin", NAME: "jf", URL: "http://jf:8096", TOKEN: "" }] };
    const { config, sources } = overlay({ SCANARR_TARGETS__0__TOKEN: "jellyfin-api-key-1234" }, raw);
    expect(config.TARGETS).toEqual([{ TYPE: "jellyfin", NAME: "jf", URL: "http://jf:8096", TOKEN: "jellyfin-api-key-1234" }]);
    expect(sources.settings).toEqual([{ path: "TARGETS[0].TOKEN", variable: "SCANARR_TARGETS__0__TOKEN" }]);
    expect(sources.leaves["TARGETS[0].NAME"]).toBe("file");
  });

  it("builds entries in index order, and refuses an index past the next one", () => {
    const built = overlay({
      SCANARR_TARGETS__1__NAME: "emby",
      SCANARR_TARGETS__0__NAME: "jf",
      SCANARR_TARGETS__1__TYPE: "emby",
      SCANARR_TARGETS__0__TYPE: "jellyfin",
    });
    expect(built.problems).toEqual([]);
    expect(built.config.TARGETS).toEqual([
      { NAME: "jf", TYPE: "jellyfin" },
      { NAME: "emby", TYPE: "emby" },
    ]);
    expect(overlay({ SCANARR_ANCHORS__2: "/mnt/x" }, { ANCHORS: ["/a"] }).problems).toEqual([
      "SCANARR_ANCHORS__2: ANCHORS has 1 entries, so the next index is 1",
    ]);
  });

  it("names the variable and the kind when a value does not fit, quoting it only when it is no secret", () => {
    const { problems } = overlay({
      SCANARR_SERVER_PORT: "80a",
      SCANARR_CLOUD__ENABLED: "maybe",
      SCANARR_SERVER_SCAN_DELAY: "1,5",
      SCANARR_TARGETS: '[{"TYPE": "plex", "TOKEN": "very-secret-token-abcd"',
    });
    expect(problems).toEqual([
      'SCANARR_CLOUD__ENABLED: must be true or false (also 1/0, yes/no) (got "maybe")',
      'SCANARR_SERVER_PORT: must be a whole number (got "80a")',
      'SCANARR_SERVER_SCAN_DELAY: must be a number (got "1,5")',
      expect.stringMatching(/^SCANARR_TARGETS: must be JSON .*: expected ',' or ']' after the value at character 52$/),
    ]);
    expect(problems.join("\n")).not.toContain("very-secret");
  });
});

describe("overlayEnv: names", () => {
  it("refuses a name that is no key, with the nearest key as a variable", () => {
    expect(overlay({ SCANARR_SERVER_PROT: "1", SCANARR_CLOUD__ENABLD: "1", SCANARR_NOTHING_LIKE_IT: "1" }).problems).toEqual([
      "SCANARR_CLOUD__ENABLD: names no config key (did you mean SCANARR_CLOUD__ENABLED?)",
      "SCANARR_NOTHING_LIKE_IT: names no config key",
      "SCANARR_SERVER_PROT: names no config key (did you mean SCANARR_SERVER_PORT?)",
    ]);
  });

  it("says that a free-form map is set whole, and that a list takes an index", () => {
    expect(
      overlay({ SCANARR_SOURCES__SONARR__PRIORITY: "2", SCANARR_TARGETS__PLEX__TOKEN: "x", SCANARR_TARGETS__0__TOKN: "x" }).problems,
    ).toEqual([
      "SCANARR_SOURCES__SONARR__PRIORITY: names no config key (SOURCES is set whole, as JSON, in SCANARR_SOURCES)",
      "SCANARR_TARGETS__0__TOKN: names no config key (did you mean SCANARR_TARGETS__0__TOKEN?)",
      "SCANARR_TARGETS__PLEX__TOKEN: names no config key (TARGETS takes an index, as in SCANARR_TARGETS__0, or the whole list as JSON in SCANARR_TARGETS)",
    ]);
  });

  it("leaves alone the SCANARR_ variables that are not keys, among them every one a hook gets", () => {
    const hookEnv = hookEnvironment("after", {
      folder: "/tv/Show",
      source: "sonarr",
      event: "Download",
      target: "plex",
      section: { id: "1", title: "TV" },
      files: ["/tv/Show/a.mkv"],
      deletedFiles: ["/tv/Show/b.mkv"],
      missingFiles: ["/tv/Show/c.mkv"],
      analyzedItems: ["9"],
      result: "failed",
      trash: "left alone",
      error: "refused",
    });
    for (const name of Object.keys(hookEnv)) expect(RESERVED_VARIABLES).toContain(name);
    const env = { ...hookEnv, SCANARR_INSTALL_DIR: "/", SCANARR_DEBUG: "1", PLEX_TOKEN: "not ours", scanarr_server_port: "1" };
    expect(overlay(env)).toEqual({ config: {}, sources: { settings: [], leaves: {} }, problems: [] });
  });
});

describe("overlayEnv: SCANARR_<KEY>_FILE", () => {
  it("reads the value from the file without its trailing line break", () => {
    const file = secretFile("  plex-token from a secret \n\n");
    const { config, sources } = overlay({ SCANARR_PLEX_TOKEN_FILE: file, SCANARR_SERVER_PORT_FILE: secretFile("4001\n") });
    expect(config).toEqual({ PLEX_TOKEN: "  plex-token from a secret ", SERVER_PORT: 4001 });
    expect(sources.leaves.PLEX_TOKEN).toBe("env SCANARR_PLEX_TOKEN_FILE");
  });

  it("takes a key whose own name ends in _FILE as that key first", () => {
    const pathFile = secretFile("/config/sa.json\n");
    const { config } = overlay({
      SCANARR_CLOUD__SERVICE_ACCOUNT_FILE: "/config/direct.json",
      SCANARR_RCLONE__CONFIG: "/rclone.conf",
      SCANARR_TARGETS__0__TOKEN_FILE: pathFile,
    });
    expect(config).toEqual({
      CLOUD: { SERVICE_ACCOUNT_FILE: "/config/direct.json" },
      RCLONE: { CONFIG: "/rclone.conf" },
      TARGETS: [{ TOKEN: "/config/sa.json" }],
    });
    expect(overlay({ SCANARR_CLOUD__SERVICE_ACCOUNT_FILE_FILE: pathFile }).config).toEqual({
      CLOUD: { SERVICE_ACCOUNT_FILE: "/config/sa.json" },
    });
  });

  it("refuses a missing file, an empty name, and the key set both ways", () => {
    const file = secretFile("token-from-the-file-5678");
    const { problems, config } = overlay({
      SCANARR_PLEX_TOKEN: "token-in-the-variable",
      SCANARR_PLEX_TOKEN_FILE: file,
      SCANARR_CLOUD__CLIENT_SECRET_FILE: "/nonexistent/secret",
      SCANARR_RCLONE__RC_CACHE_REFRESH__RC_PASS_FILE: "",
    });
    expect(problems).toEqual([
      "SCANARR_CLOUD__CLIENT_SECRET_FILE: cannot read /nonexistent/secret: no such file",
      "SCANARR_PLEX_TOKEN and SCANARR_PLEX_TOKEN_FILE both set PLEX_TOKEN; keep one",
      "SCANARR_RCLONE__RC_CACHE_REFRESH__RC_PASS_FILE: names no file",
    ]);
    expect(problems.join("\n")).not.toContain("token-from-the-file");
    expect(config).toEqual({ PLEX_TOKEN: "token-in-the-variable" });
  });
});

describe("parseConfigText with an environment", () => {
  it("refuses a SCANARR_<KEY>_FILE naming a FIFO, a device or a folder at once, instead of waiting or reading without end", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "scanarr-env-"));
    const fifo = path.join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const { problems } = loadWith(
      {},
      { SCANARR_PLEX_TOKEN_FILE: fifo, SCANARR_SERVER_PASS_FILE: "/dev/zero", SCANARR_CLOUD__CLIENT_SECRET_FILE: dir },
    );
    expect(problems).toEqual([
      `SCANARR_CLOUD__CLIENT_SECRET_FILE: cannot read ${dir}: it is a folder`,
      `SCANARR_PLEX_TOKEN_FILE: cannot read ${fifo}: it is not a regular file (a FIFO, a device or a socket)`,
      "SCANARR_SERVER_PASS_FILE: cannot read /dev/zero: it is not a regular file (a FIFO, a device or a socket)",
    ]);
  });

  it("refuses a SCANARR_<KEY>_FILE over 64 KiB: a value, never a whole file", () => {
    const { problems } = loadWith({}, { SCANARR_PLEX_TOKEN_FILE: secretFile("x".repeat(64 * 1024 + 1)) });
    expect(problems).toEqual([expect.stringMatching(/^SCANARR_PLEX_TOKEN_FILE: cannot read .*: it is larger than 64 KiB$/)]);
  });

  it("lays the variables over a plex_autoscan file after its GOOGLE section became CLOUD", () => {
    const result = loadWith({ GOOGLE: { ENABLED: false, POLL_INTERVAL: 60 } }, { SCANARR_CLOUD__POLL_INTERVAL: "90" });
    expect(result.problems).toBeUndefined();
    const { config, warnings, sources } = result.loaded ?? expect.unreachable();
    expect(config.CLOUD.POLL_INTERVAL).toBe(90);
    expect(config.CLOUD.ENABLED).toBe(false);
    expect(warnings).toContain("GOOGLE: read as CLOUD (plex_autoscan's section was renamed); rename it to CLOUD to silence this warning");
    expect(sources.leaves["CLOUD.ENABLED"]).toBe("file");
  });

  it("names the variable in a problem the schema or the rules find, and never the secret", () => {
    const { problems } = loadWith(
      {},
      { SCANARR_SERVER_PORT: "70000", SCANARR_SERVER_PASS_FILE: secretFile("short!!\n"), SCANARR_TARGETS: '[{"TYPE": "plex"}]' },
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "SERVER_PORT: must be at most 65535, got 70000 (from SCANARR_SERVER_PORT)",
        expect.stringMatching(/^SERVER_PASS: must be at least 8 characters.* \(from SCANARR_SERVER_PASS_FILE\)$/),
        expect.stringMatching(/^TARGETS\[0\]\.NAME: missing.* \(from SCANARR_TARGETS\)$/),
      ]),
    );
    expect(problems?.join("\n")).not.toContain("short!!");
  });

  it("writes a first config without the environment's values, and loads it with them", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "scanarr-env-")), "config.json");
    const env = { SCANARR_SERVER_PORT: "4013", SCANARR_PLEX_TOKEN_FILE: secretFile("token-of-the-first-start\n") };
    const loaded = await loadConfig(file, TARGET_CONFIGS, { create: true, env });
    expect(loaded.created).toBe(true);
    expect(loaded.config).toMatchObject({ SERVER_PORT: 4013, PLEX_TOKEN: "token-of-the-first-start" });
    const written = readFileSync(file, "utf8");
    expect(written).not.toContain("token-of-the-first-start");
    expect((JSON.parse(written) as { SERVER_PORT?: number }).SERVER_PORT).not.toBe(4013);
  });

  it("counts a SERVER_PASS from the environment as given", () => {
    const env = { SCANARR_SERVER_PASS: "abcdefgh-from-env", SCANARR_PLEX_TOKEN: "plex-token-from-env" };
    const loaded = parseConfigText("{}", TARGET_CONFIGS, "config.json", ["server"], env);
    expect(loaded.config.SERVER_PASS).toBe("abcdefgh-from-env");
    expect(loaded.unmet).toEqual([]);
  });
});

describe("the SCANARR_ names the code and its tests use", () => {
  it("are each a config key or set aside as not one, so no child process of theirs fails to load its config", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    // The overlay's own files and tests name wrong variables on purpose.
    const own = /^(src\/config\/env-|src\/cli\/config-show\.ts$|test\/config\/env-overlay\.test\.ts$|test\/cli\/config-env\.test\.ts$)/;
    const files = ["src", "bench", "test", "contrib", ".ci", "bin"]
      .flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()))
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
      .filter((file) => !own.test(file) && /\.(ts|mjs|js|sh|yml|json)$|Dockerfile$|\/run$/.test(file));
    const names = new Set(
      files.flatMap((file) => readFileSync(path.join(root, file), "utf8").match(/\bSCANARR_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []),
    );
    expect(names.size).toBeGreaterThan(10);
    const refused = [...names].filter((name) => overlay({ [name]: "1" }).problems.some((p) => p.includes("names no config key")));
    expect(refused).toEqual([]);
  });
});

describe("withVariable, naming the variable behind a config problem", () => {
  const settings = [
    { path: "SERVER_PORT", variable: "SCANARR_SERVER_PORT" },
    { path: "ARR_APPS[0].API_KEY", variable: "SCANARR_ARR_APPS__0__API_KEY" },
  ];

  it("names the variable that set the key, or the one that set another field of the same list entry", () => {
    expect(withVariable("SERVER_PORT: must be at most 65535, got 70000", settings)).toBe(
      "SERVER_PORT: must be at most 65535, got 70000 (from SCANARR_SERVER_PORT)",
    );
    expect(withVariable("ARR_APPS[0].TYPE: missing; it is required", settings)).toBe(
      "ARR_APPS[0].TYPE: missing; it is required (ARR_APPS[0] has a field from SCANARR_ARR_APPS__0__API_KEY)",
    );
    expect(withVariable("ARR_APPS[1].TYPE: missing; it is required", settings)).toBe("ARR_APPS[1].TYPE: missing; it is required");
    expect(withVariable("SERVER_IP: must be a host", settings)).toBe("SERVER_IP: must be a host");
  });
});
