import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { CONFIG_SCHEMA, secretOf, type Spec } from "../../src/config/schema.js";
import { secretLogPaths, secretPathsOf, secretValuesOf } from "../../src/config/secrets.js";
import type { Config } from "../../src/config/types.js";
import { createLogger } from "../../src/lib/logger.js";
import { runCli, tempDir } from "../helpers/cli.js";

/** Names that look like a secret; a key named so must be declared secret in the schema or be listed below. */
const LOOKS_SECRET = /TOKEN|PASS|SECRET|KEY|HASH/;
/** Keys whose name looks secret and whose value is not, with why. */
const NOT_SECRET: Record<string, string> = {
  "CLOUD.TOKEN_URL": "the address of Google's token endpoint",
};

function leafPaths(spec: Spec, at = ""): Array<{ path: string; spec: Spec }> {
  if (spec.kind === "object") return Object.entries(spec.fields).flatMap(([key, field]) => leafPaths(field, at ? `${at}.${key}` : key));
  if (spec.kind === "list") return leafPaths(spec.item, `${at}[*]`);
  return [{ path: at, spec }];
}

/** A config that loads, with one entry in each list that holds a secret. */
function validConfig(): Record<string, unknown> {
  return {
    ...defaultConfig("0123456789abcdef0123456789abcdef"),
    TARGETS: [{ TYPE: "jellyfin", NAME: "jf", URL: "http://jf:8096", TOKEN: "jellyfin-api-key" }],
    NOTIFICATIONS: [{ URL: "https://hooks.example/notify" }],
    ARR_APPS: [{ TYPE: "sonarr", URL: "http://sonarr:8989", API_KEY: "sonarr-api-key" }],
  };
}

/** Sets the value at a secret path (`[*]` is the first entry). */
function setAt(config: Record<string, unknown>, secretPath: string, value: unknown): void {
  const keys = secretPath.replaceAll("[*]", ".0").split(".");
  const last = keys.pop() as string;
  let node = config as Record<string, unknown>;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  node[last] = value;
}

function installWith(config: unknown): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "config"));
  writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
  return dir;
}

describe("secrets are declared once, in the schema", () => {
  it("declares every key whose name looks secret", () => {
    const undeclared = leafPaths(CONFIG_SCHEMA)
      .filter(({ path: p, spec }) => LOOKS_SECRET.test(p.split(".").pop() ?? p) && secretOf(spec) === undefined)
      .map(({ path: p }) => p)
      .filter((p) => !(p in NOT_SECRET));
    expect(undeclared).toEqual([]);
  });

  it("knows the secrets the review listed", () => {
    expect(secretPathsOf()).toEqual(
      expect.arrayContaining([
        "SERVER_PASS",
        "PLEX_TOKEN",
        "CLOUD.CLIENT_SECRET",
        "TARGETS[*].TOKEN",
        "TARGETS[*].PASSWORD",
        "RCLONE.RC_CACHE_REFRESH.RC_PASS",
        "SERVER_PASSWORD_HASH",
        "NOTIFICATIONS[*].URL",
      ]),
    );
  });
});

describe("`config check` never prints a secret's value", () => {
  // Values of the wrong type, and strings the rules refuse, for every declared secret.
  const wrong: unknown[] = [987654321987, ["s3cr3t-in-a-list"], { nested: "s3cr3t-in-an-object" }, true];
  const badStrings: Record<string, string> = {
    SERVER_PASS: "s3cr3t!",
    "TARGETS[*].TOKEN": "s3cr3t token",
    "TARGETS[*].PASSWORD": "s3cr3t-password",
    SERVER_PASSWORD_HASH: "s3cr3t-not-a-hash",
    "NOTIFICATIONS[*].URL": "s3cr3t-not-a-url",
  };

  for (const secretPath of secretPathsOf()) {
    const values = [...wrong, ...(secretPath in badStrings ? [badStrings[secretPath]] : [])];
    it(`refuses a bad ${secretPath} with exit 2, naming the key and not the value`, async () => {
      for (const value of values) {
        const config = validConfig();
        setAt(config, secretPath, value);
        const { code, stdout, stderr } = await runCli(["--install-dir", installWith(config), "config", "check"]);
        expect(code, JSON.stringify(value)).toBe(2);
        expect(stderr).toContain(secretPath.replaceAll("[*]", "[0]"));
        expect(stdout + stderr).not.toMatch(/987654321987|s3cr3t/);
      }
    });
  }

  it("does not echo a list of secrets given where entries belong", async () => {
    const config = { ...validConfig(), NOTIFICATIONS: ["https://discord.com/api/webhooks/1/s3cr3t-webhook-token"], TARGETS: "s3cr3t" };
    const { code, stderr } = await runCli(["--install-dir", installWith(config), "config", "check"]);
    expect(code).toBe(2);
    expect(stderr).toContain("NOTIFICATIONS[0]: must be an object, got a string");
    expect(stderr).toContain("TARGETS: must be an array, got a string");
    expect(stderr).not.toContain("s3cr3t");
  });
});

describe("every declared secret is masked", () => {
  /** A distinct, long value per secret path (a URL for URL keys). */
  const valueFor = (secretPath: string, spec: Spec | undefined): string =>
    spec?.kind === "url"
      ? `https://hooks.example/${secretPath.replace(/\W/g, "")}-s3cr3t-0123456789abcdef`
      : `${secretPath.replace(/\W/g, "")}-s3cr3t-value-WXYZ`;

  function everySecretSet(): { config: Record<string, unknown>; values: string[] } {
    const config = validConfig();
    const specs = new Map(leafPaths(CONFIG_SCHEMA).map(({ path: p, spec }) => [p, spec]));
    const values: string[] = [];
    for (const secretPath of secretPathsOf()) {
      const value =
        secretPath === "SERVER_PASSWORD_HASH"
          ? "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"
          : valueFor(secretPath, specs.get(secretPath));
      if (secretPath === "SERVER_PASS") continue; // a URL segment: set below to a value of its alphabet
      setAt(config, secretPath, value);
      values.push(value);
    }
    // A target's TOKEN and PASSWORD belong to different TYPEs.
    const [entry] = config.TARGETS as Array<Record<string, unknown>>;
    const { PASSWORD, ...jellyfin } = entry as Record<string, unknown>;
    config.TARGETS = [jellyfin, { TYPE: "autoscan", NAME: "as", URL: "http://as:3030", USERNAME: "u", PASSWORD }];
    config.SERVER_PASS = "serverpass-s3cr3t-value-WXYZ";
    config.SERVER_USERNAME = "admin";
    values.push("serverpass-s3cr3t-value-WXYZ");
    return { config, values };
  }

  it("in `config show`, as text and as JSON", async () => {
    const { config, values } = everySecretSet();
    const dir = installWith(config);
    for (const args of [
      ["config", "show"],
      ["config", "show", "--json"],
    ]) {
      const { code, stdout, stderr } = await runCli(["--install-dir", dir, ...args]);
      expect(code, stderr).toBe(0);
      for (const value of values) expect(stdout).not.toContain(value.slice(0, -4));
      expect(stdout).not.toContain("s3cr3t");
    }
  });

  it("in what doctor and notifications mask (secretValuesOf)", () => {
    const { config, values } = everySecretSet();
    const found = secretValuesOf(config as unknown as Config);
    for (const value of values) {
      const hidden = value.startsWith("https://") ? new URL(value).pathname.slice(1) : value;
      expect(found).toContain(hidden);
    }
  });

  it("in the logs, where a line carries the config or one of its parts", () => {
    const { config } = everySecretSet();
    let out = "";
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const logger = createLogger({ format: "json", destination, redact: secretLogPaths() });
    logger.info({ config }, "whole");
    logger.info(config, "top level");
    logger.info({ RC_PASS: "s3cr3t-rc", target: { TOKEN: "ignored-name" } }, "parts");
    expect(out).not.toContain("s3cr3t");
  });
});
