import { readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "../../src/auth/password-hash.js";
import { setTopLevelStrings } from "../../src/config/json-edit.js";
import { runCli, tempDir } from "../helpers/cli.js";

/** A hand-edited config: 4-space indent, keys in the user's order, a nested key named like a top-level one. */
const HAND_EDITED = `{
    "SERVER_PASS": "0123456789abcdef0123456789abcdef",
    "PLEX_TOKEN": "plex-token-for-the-test",
    "SERVER_PATH_MAPPINGS": { "/data/TV/": ["/tv/"] },
    "CLOUD": {"ENABLED": false, "CLIENT_ID": "id with \\"quotes\\" and } braces"},
    "SERVER_IGNORE_LIST": ["/.grab/"]
}
`;

function writeConfig(text = HAND_EDITED): string {
  const file = path.join(tempDir("scanarr-passwd-"), "config.json");
  writeFileSync(file, text);
  chmodSync(file, 0o644);
  return file;
}

describe("scanarr passwd", () => {
  it("writes an argon2id hash of the password read from stdin, mode 0600, keeping every other byte", async () => {
    const file = writeConfig();
    const result = await runCli(["--config", file, "passwd", "--username", "arr"], {}, "correct horse battery\n");
    expect(result.code).toBe(0);
    const text = readFileSync(file, "utf8");
    const config = JSON.parse(text) as Record<string, string>;
    expect(config.SERVER_USERNAME).toBe("arr");
    expect(config.SERVER_PASSWORD_HASH).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(config.SERVER_PASSWORD_HASH ?? "", "correct horse battery")).toBe(true);
    const lastMember = HAND_EDITED.lastIndexOf("]") + 1;
    expect(text.slice(0, lastMember)).toBe(HAND_EDITED.slice(0, lastMember));
    expect(text.slice(lastMember)).toBe(
      `,\n    "SERVER_USERNAME": "arr",\n    "SERVER_PASSWORD_HASH": "${config.SERVER_PASSWORD_HASH}"\n}\n`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(result.stdout + result.stderr).not.toContain("correct horse");
  });

  it("changes only the hash's value when run again, keeping the configured username", async () => {
    const file = writeConfig();
    await runCli(["--config", file, "passwd", "--username", "arr"], {}, "first\n");
    const before = readFileSync(file, "utf8");
    const oldHash = (JSON.parse(before) as Record<string, string>).SERVER_PASSWORD_HASH ?? "";
    expect((await runCli(["--config", file, "passwd"], {}, "second\n")).code).toBe(0);
    const after = readFileSync(file, "utf8");
    const newHash = (JSON.parse(after) as Record<string, string>).SERVER_PASSWORD_HASH ?? "";
    expect(after).toBe(before.replace(oldHash, newHash));
    expect(await verifyPassword(newHash, "second")).toBe(true);
  });

  it("removes the login with --clear", async () => {
    const file = writeConfig();
    await runCli(["--config", file, "passwd", "--username", "arr"], {}, "pw\n");
    expect((await runCli(["--config", file, "passwd", "--clear"])).code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ SERVER_USERNAME: "", SERVER_PASSWORD_HASH: "" });
  });

  it("refuses, changing nothing, without a username or with an empty password", async () => {
    const file = writeConfig();
    const noName = await runCli(["--config", file, "passwd"], {}, "pw\n");
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain("--username");
    const empty = await runCli(["--config", file, "passwd", "--username", "arr"], {}, "\n");
    expect(empty.code).toBe(2);
    expect(readFileSync(file, "utf8")).toBe(HAND_EDITED);
  });

  it("accepts the written config in config check", async () => {
    const file = writeConfig();
    await runCli(["--config", file, "passwd", "--username", "arr"], {}, "pw\n");
    expect((await runCli(["--config", file, "config", "check"])).code).toBe(0);
  });
});

describe("setTopLevelStrings", () => {
  it("replaces only a top-level key, never a nested one of the same name", () => {
    const text = '{"A": {"SERVER_USERNAME": "nested"}, "SERVER_USERNAME": "old"}';
    expect(setTopLevelStrings(text, { SERVER_USERNAME: "new" })).toBe('{"A": {"SERVER_USERNAME": "nested"}, "SERVER_USERNAME": "new"}');
  });

  it("adds keys to an empty object and keeps a byte-order mark", () => {
    expect(JSON.parse(setTopLevelStrings("{}", { A: "1", B: "2" }))).toEqual({ A: "1", B: "2" });
    expect(setTopLevelStrings('\uFEFF{"A": "x"}', { A: "y" })).toBe('\uFEFF{"A": "y"}');
  });
});
