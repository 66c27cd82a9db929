import { describe, expect, it } from "vitest";
import { defaultConfig, withTargetDefaults } from "../../src/config/defaults.js";
import { CONFIG_SCHEMA, type Spec } from "../../src/config/schema.js";
import { specAt } from "../../src/config/spec.js";
import { configSchema } from "../../src/config/target-kind.js";
import { validateValue, type ValidationReport } from "../../src/config/validate.js";
import { TARGET_CONFIGS } from "../../src/targets/registry.js";

const PASS = "0123456789abcdef0123456789abcdef";

/** Every key's dotted path and spec, list entries and map values included (`TARGETS[*].NAME`). */
function everyKey(spec: Spec, at = ""): [string, Spec][] {
  if (spec.kind === "object") {
    return Object.entries(spec.fields).flatMap(([key, field]) => {
      const path = at ? `${at}.${key}` : key;
      return [[path, field] as [string, Spec], ...everyKey(field, path)];
    });
  }
  if (spec.kind === "list") return everyKey(spec.item, `${at}[*]`);
  if (spec.kind === "map") return everyKey(spec.value, `${at}{*}`);
  return [];
}

function problemsOf(spec: Spec, value: unknown): string[] {
  const report: ValidationReport = { problems: [], warnings: [] };
  validateValue(spec, value, "", report);
  return report.problems;
}

describe("the config schema, the one declaration of every key", () => {
  it("gives every key, the target folders' own fields included, a one-line description", () => {
    const undescribed = everyKey(configSchema(TARGET_CONFIGS)).filter(([, spec]) => !spec.doc || spec.doc.includes("\n"));
    expect(undescribed.map(([path]) => path)).toEqual([]);
  });

  it("gives every key outside list entries a default (but one declared optional, whose absence means something), and its defaults pass its own checks", () => {
    const config = defaultConfig(PASS);
    expect(problemsOf(CONFIG_SCHEMA, config)).toEqual([]);
    const top = everyKey(CONFIG_SCHEMA).filter(([path, spec]) => !/[[{]/.test(path) && !("optional" in spec && spec.optional));
    // SERVER_MAX_FILE_CHECKS unset: file checks where the library folder is on this machine (mount/file-check-scope.ts).
    expect(
      everyKey(CONFIG_SCHEMA)
        .filter(([path, spec]) => !/[[{]/.test(path) && "optional" in spec && spec.optional)
        .map(([p]) => p),
    ).toEqual(["SERVER_MAX_FILE_CHECKS"]);
    const missing = top.filter(
      ([path]) => path.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], config) === undefined,
    );
    expect(missing.map(([path]) => path)).toEqual([]);
  });

  it("hands out a fresh copy of the defaults each time", () => {
    const first = defaultConfig(PASS);
    first.SERVER_IGNORE_LIST.push("changed");
    first.CLOUD.ALLOWED.FILE_PATHS.length = 0;
    expect(defaultConfig(PASS).SERVER_IGNORE_LIST).toEqual(["/.grab/", ".DS_Store", "Thumbs.db"]);
    expect(defaultConfig(PASS).CLOUD.ALLOWED.FILE_PATHS).toHaveLength(2);
  });

  it("fills a target entry's common fields from the schema and leaves its own fields as written", () => {
    const entry = withTargetDefaults({ TYPE: "tdarr", NAME: "t", URL: "http://t:8265", LIBRARY_ID: "abc" });
    expect(entry).toEqual({
      TYPE: "tdarr",
      NAME: "t",
      URL: "http://t:8265",
      TOKEN: "",
      USERNAME: "",
      PASSWORD: "",
      PATH_MAPPINGS: {},
      ENABLED: true,
      LIBRARY_ID: "abc",
    });
  });
});

describe("specAt, the kind and secrecy of a key path", () => {
  it.each([
    [["CLOUD", "ENABLED"], "boolean", false],
    [["SERVER_PORT"], "integer", false],
    [["SERVER_SCAN_DELAY"], "number", false],
    [["PLEX_SCAN_METHOD"], "string", false],
    [["PLEX_TOKEN"], "string", true],
    [["SERVER_PASSWORD_HASH"], "string", true],
    [["RCLONE", "RC_CACHE_REFRESH", "RC_PASS"], "string", true],
    [["SERVER_IGNORE_LIST"], "json", false],
    [["TARGETS"], "json", true],
    [["CLOUD"], "json", true],
    [["METRICS"], "json", false],
  ] as const)("tells %j is %s (secret: %s)", (path, kind, secret) => {
    expect(specAt(CONFIG_SCHEMA, path)).toMatchObject({ kind, secret });
  });

  it("goes through a list's index to its entry's fields", () => {
    expect(specAt(CONFIG_SCHEMA, ["TARGETS", "0", "TOKEN"])).toMatchObject({ kind: "string", secret: true });
    expect(specAt(CONFIG_SCHEMA, ["RUN_COMMAND_BEFORE_SCAN"])).toMatchObject({ kind: "command", secret: false });
  });

  it("knows no key the schema does not declare, nor a path through a list by name or through a scalar", () => {
    expect(specAt(CONFIG_SCHEMA, ["NOPE"])).toBeUndefined();
    expect(specAt(CONFIG_SCHEMA, ["TARGETS", "NAME"])).toBeUndefined();
    expect(specAt(CONFIG_SCHEMA, ["SERVER_PORT", "X"])).toBeUndefined();
    expect(specAt(CONFIG_SCHEMA, ["toString"])).toBeUndefined();
  });
});
