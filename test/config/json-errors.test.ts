import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/load.js";
import { parseConfigText } from "./parse.js";
import { runCli, tempDir } from "../helpers/cli.js";

function errorOf(text: string): string {
  try {
    parseConfigText(text, "config.json", []);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

// What plex_autoscan users type: Python literals and quotes, in an otherwise ordinary file.
const PYTHON_STYLE = [
  "{",
  '  "SERVER_IP": "0.0.0.0",',
  '  "SERVER_PORT": 3468,',
  '  "SERVER_ALLOW_MANUAL_SCAN": True,',
  '  "PLEX_TOKEN": "abc"',
  "}",
].join("\n");

describe("invalid JSON in the config file", () => {
  it("names the line and column of a Python True, on one line, with the fix", () => {
    const message = errorOf(PYTHON_STYLE);
    expect(message).toBe(
      'config file config.json: invalid JSON at line 4, column 31: expected a value, found "True" ' +
        '(True is Python; JSON writes true in lower case); near "SERVER_ALLOW_MANUAL_SCAN": True,',
    );
    expect(message).not.toContain("\n");
  });

  it("names False and None the same way", () => {
    expect(errorOf('{\n  "USE_SUDO": False\n}')).toMatch(/line 2, column 15: .*False is Python; JSON writes false/);
    expect(errorOf('{\n  "A": [1,\n    2],\n  "PLEX_TOKEN": None\n}')).toMatch(/line 4, column 17: .*None is Python; JSON writes null/);
  });

  it("points at a single-quoted key or value and asks for double quotes", () => {
    expect(errorOf("{\n  'SERVER_PORT': 3468\n}")).toMatch(
      /line 2, column 3: expected a double-quoted property name, found "'" \(JSON needs double quotes/,
    );
    expect(errorOf("{\n  \"PLEX_USER\": 'plex'\n}")).toMatch(/line 2, column 16: expected a value, found "'" \(JSON needs double quotes/);
  });

  it("explains a trailing comma, a missing comma and a comment where they are", () => {
    expect(errorOf('{\n  "SERVER_PORT": 3468,\n}')).toMatch(/line 3, column 1: .*no comma before a closing bracket/);
    expect(errorOf('{\n  "SERVER_IGNORE_LIST": ["a",]\n}')).toMatch(/line 2, column 30: .*no comma before a closing bracket/);
    expect(errorOf('{\n  "SERVER_PORT": 3468\n  "SERVER_IP": "0.0.0.0"\n}')).toMatch(/line 3, column 3: .*a comma is missing before it/);
    expect(errorOf('{\n  # plex\n  "SERVER_PORT": 3468\n}')).toMatch(
      /line 2, column 3: .*JSON has no comments; scanarr ignores keys that start with "_"/,
    );
  });

  it("says how to write a Windows path and what an empty file is", () => {
    expect(errorOf('{"PLEX_SCANNER": "C:\\Plex"}')).toMatch(/line 1, column 21: bad escape .*doubled backslashes/);
    expect(errorOf("")).toMatch(/line 1, column 1: .*the file is empty/);
  });

  it("points at a tab inside a string and at an unterminated string's end", () => {
    expect(errorOf('{"PLEX_USER": "pl\tex"}')).toMatch(/line 1, column 18: control character .* write \\t/);
    expect(errorOf('{\n  "PLEX_USER": "plex\n}')).toMatch(/line 2, column 21: control character/);
    expect(errorOf('{\n  "PLEX_USER": "plex')).toMatch(/line 2, column 21: unterminated string, found the end of the file/);
  });

  it("counts a tab and an astral character as one column each", () => {
    expect(errorOf('{\n\t"😀": True\n}')).toMatch(/line 2, column 7: /);
  });

  it("prints the one-line message and exits 2 through the CLI", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "config"));
    writeFileSync(path.join(dir, "config", "config.json"), PYTHON_STYLE, { mode: 0o600 });
    const { code, stderr } = await runCli(["--install-dir", dir, "config", "check"]);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^error: config file .*config\.json: invalid JSON at line 4, column 31: /);
  });
});
