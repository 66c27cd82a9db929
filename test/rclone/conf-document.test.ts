import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listSections, parseConf, readSection, serializeConf } from "../../src/rclone/conf-document.js";
import { appendSection, copySection, removeSection, renameSection, setConfValue } from "../../src/rclone/conf-edit.js";
import { dumpConfig, hasRclone, makeTempDir, runRclone } from "./rclone-cli.js";

const MIXED = `${[
  "# my rclone remotes",
  "; kept too",
  "[local-alias]",
  "type = alias",
  "remote = /srv/media",
  "weird_key=no spaces",
  "colon_key: uses a colon",
  "note = value # not a comment",
  "",
  "# the old drive",
  "[old]",
  "type = drive",
  'token = {"access_token":"a","expiry":"2030-01-01T00:00:00Z"}',
  "",
].join("\n")}\n`;

function roundTrip(text: string): string {
  return serializeConf(parseConf(text));
}

describe("rclone.conf document", () => {
  it("writes back any file it parsed byte for byte, CRLF, BOM and missing final newline included", () => {
    expect(roundTrip(MIXED)).toBe(MIXED);
    expect(roundTrip(MIXED.replace(/\n/g, "\r\n"))).toBe(MIXED.replace(/\n/g, "\r\n"));
    expect(roundTrip(`\uFEFF${MIXED}`)).toBe(`\uFEFF${MIXED}`);
    expect(roundTrip("[a]\ntype = alias")).toBe("[a]\ntype = alias");
  });

  it("reads keys as rclone does: first = or : splits, no inline comments, backtick quoting, merged repeated sections", () => {
    const doc = parseConf(`${MIXED}[ local-alias ]\nextra = \`  spaced \`\n`);
    const alias = readSection(doc, "local-alias");
    expect(alias.get("weird_key")).toBe("no spaces");
    expect(alias.get("colon_key")).toBe("uses a colon");
    expect(alias.get("note")).toBe("value # not a comment");
    expect(alias.get("extra")).toBe("  spaced ");
    expect(listSections(doc)).toEqual(["local-alias", "old"]);
  });

  it("refuses the lines rclone refuses, with rclone's wording", () => {
    expect(() => parseConf("[a]\njust words\n")).toThrow("could not parse line: just words");
    expect(() => parseConf("[]\n")).toThrow("empty section name not allowed");
    expect(() => parseConf("[a]\n= value\n")).toThrow("could not parse line");
  });

  it("changes only the edited lines and keeps comments, unknown keys and other remotes", () => {
    const doc = parseConf(MIXED);
    setConfValue(doc, "old", "scope", "drive");
    setConfValue(doc, "local-alias", "remote", "/srv/other");
    appendSection(doc, "gdrive", [
      ["type", "drive"],
      ["team_drive", ""],
    ]);
    const text = serializeConf(doc);
    expect(text).toContain("# my rclone remotes\n; kept too\n[local-alias]\ntype = alias\nremote = /srv/other\nweird_key=no spaces\n");
    expect(text).toContain("# the old drive\n[old]\ntype = drive\ntoken = {");
    expect(text).toContain("\nscope = drive\n\n[gdrive]\ntype = drive\nteam_drive = \n\n");
    expect(text.endsWith("team_drive = \n\n")).toBe(true);
  });

  it("removes a remote together with the comments above its header only", () => {
    const doc = parseConf(MIXED);
    removeSection(doc, "old");
    expect(serializeConf(doc)).toBe(MIXED.slice(0, MIXED.indexOf("# the old drive")));
    const other = parseConf(MIXED);
    removeSection(other, "local-alias");
    expect(serializeConf(other)).toBe(MIXED.slice(MIXED.indexOf("# the old drive")));
  });
});

describe.skipIf(!hasRclone)("rclone.conf document against real rclone", () => {
  it("writes files that rclone reads as meant after add, edit, rename, copy and delete", () => {
    const file = path.join(makeTempDir(), "rclone.conf");
    writeFileSync(file, MIXED);
    const doc = parseConf(readFileSync(file, "utf8"));
    appendSection(doc, "gdrive", [
      ["type", "drive"],
      ["scope", "drive"],
      ["team_drive", ""],
    ]);
    setConfValue(doc, "gdrive", "root_folder_id", "abc");
    copySection(doc, "gdrive", "copy of gdrive");
    renameSection(doc, "old", "older");
    removeSection(doc, "local-alias");
    writeFileSync(file, serializeConf(doc));
    const dump = dumpConfig(file);
    expect(dump).toEqual({
      older: { type: "drive", token: '{"access_token":"a","expiry":"2030-01-01T00:00:00Z"}' },
      gdrive: { type: "drive", scope: "drive", team_drive: "", root_folder_id: "abc" },
      "copy of gdrive": { type: "drive", scope: "drive", team_drive: "", root_folder_id: "abc" },
    });
  });

  it("reads files written by `rclone config create` and leaves them unchanged", () => {
    const file = path.join(makeTempDir(), "rclone.conf");
    const token = '{"access_token":"ya29.FAKE","token_type":"Bearer","refresh_token":"1//FAKE","expiry":"2030-01-01T00:00:00Z"}';
    runRclone([
      "--config",
      file,
      "config",
      "create",
      "gd",
      "drive",
      "scope=drive",
      `token=${token}`,
      "config_refresh_token=false",
      "config_change_team_drive=false",
      "--non-interactive",
    ]);
    runRclone(["--config", file, "config", "create", "media", "alias", "remote=/srv/media", "--non-interactive"]);
    const text = readFileSync(file, "utf8");
    const doc = parseConf(text);
    expect(serializeConf(doc)).toBe(text);
    expect(Object.fromEntries(listSections(doc).map((name) => [name, Object.fromEntries(readSection(doc, name))]))).toEqual(
      dumpConfig(file),
    );
  });
});
