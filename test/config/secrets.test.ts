import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { ConfigError } from "../../src/config/load.js";
import { parseConfigText } from "./parse.js";
import { runCli, tempDir } from "../helpers/cli.js";

function errorOf(config: unknown): ConfigError {
  try {
    parseConfigText(JSON.stringify(config));
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const valid = () => defaultConfig("0123456789abcdef0123456789abcdef");

describe("config errors never show a secret's value", () => {
  it("names the wrong type of PLEX_TOKEN, SERVER_PASS and CLIENT_SECRET without their values", () => {
    const error = errorOf({
      ...valid(),
      PLEX_TOKEN: 987654321987,
      SERVER_PASS: 12345678901234,
      CLOUD: { ...valid().CLOUD, CLIENT_SECRET: ["s3cr3t-in-a-list"] },
    });
    expect(error.problems).toEqual(
      expect.arrayContaining([
        "PLEX_TOKEN: must be a string, got a number",
        "SERVER_PASS: must be a string, got a number",
        "CLOUD.CLIENT_SECRET: must be a string, got an array",
      ]),
    );
    expect(error.message).not.toMatch(/987654321987|12345678901234|s3cr3t/);
  });

  it("does not echo plex_autoscan's GOOGLE.CLIENT_SECRET either", () => {
    const error = errorOf({ ...valid(), CLOUD: undefined, GOOGLE: { ...valid().CLOUD, CLIENT_SECRET: 424242424242 } });
    expect(error.problems).toContain("CLOUD.CLIENT_SECRET: must be a string, got a number");
    expect(error.message).not.toContain("424242424242");
  });
});

describe("PLEX_LOCAL_URL rules live in the config rules", () => {
  it.each([
    ["http://user:hunter2@plex:32400", "PLEX_LOCAL_URL: must not contain a user name or password; use PLEX_TOKEN"],
    ["http://plex:32400/?X-Plex-Token=abc123", "PLEX_LOCAL_URL: must not contain a query string; put the credential in PLEX_TOKEN"],
  ])("`config check` refuses %s with exit 2, without echoing it", async (url, problem) => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "config"));
    writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify({ ...valid(), PLEX_LOCAL_URL: url }), { mode: 0o600 });
    const { code, stderr } = await runCli(["--install-dir", dir, "config", "check"]);
    expect(code).toBe(2);
    expect(stderr).toContain(problem);
    expect(stderr).not.toMatch(/hunter2|abc123/);
  });
});
