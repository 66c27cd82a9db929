import { describe, expect, it } from "vitest";
import { CryptNameError, createNameCipher } from "../../../src/rclone/crypt/index.js";
import { hasRclone } from "../rclone-cli.js";
import { describeOptions, everyCombination, writeRcloneCrypt } from "./rclone-crypt.js";

/** Names that stress each part: unicode, spaces, dots, the obfuscation quote, Latin-1, digits, long names. */
const NAMES = [
  "a",
  "Show Name (2020) - S01E01 - Pilot.mkv",
  "  leading and trailing spaces  ",
  ".hidden",
  "..",
  "a.b.c.d",
  "trailing.",
  "Amélie (2001) — Le fabuleux destin.mkv",
  "日本語のファイル名.mp4",
  "🎬 émoji ✨ and 中文",
  "combining é vs é",
  "עברית and العربية",
  "quote ! and !! marks",
  "Latin-1 ÿ þ ß ¡ ¿ ×",
  "0123456789",
  "-starts with a dash",
  "file-v2023-01-02-150405-000.txt",
  "x".repeat(143),
  "y".repeat(300),
  "é".repeat(1000),
  "z".repeat(2047),
];

const PATHS = ["TV/Show Name (2020)/Season 01/Show - S01E01.mkv", "Movies/Amélie (2001)/Amélie (2001).mkv", "a/b/c/d/e/f.txt"];

describe.skipIf(!hasRclone)("crypt names against the real rclone", () => {
  for (const options of everyCombination()) {
    it(`encrypts as rclone does and decodes rclone's names (${describeOptions(options)})`, () => {
      const rclone = writeRcloneCrypt(options);
      const cipher = createNameCipher(options);
      const plain = [...NAMES, ...PATHS];
      const encrypted = rclone.encode(plain);
      expect(plain.map((name) => cipher.encryptPath(name, true))).toEqual(encrypted);
      expect(encrypted.map((name) => cipher.decryptPath(name, true))).toEqual(plain);
      // A batch of leaf names (a page of changes) decodes to the same.
      expect(cipher.decryptSegments(encrypted.slice(0, NAMES.length), false)).toEqual(NAMES);
      // Directory names, as the Drive poller meets them: one segment at a time.
      const segments = encrypted[NAMES.length]!.split("/");
      expect(segments.map((segment, i) => cipher.decryptSegment(segment, i < segments.length - 1))).toEqual(PATHS[0]!.split("/"));
    });
  }

  it("refuses a name of 2,048 bytes or more with CryptNameError, where rclone itself stops with a panic", () => {
    const options = everyCombination()[0]!;
    const rclone = writeRcloneCrypt(options);
    expect(() => rclone.encode(["w".repeat(2048)])).toThrow();
    expect(() => createNameCipher(options).encryptSegment("w".repeat(2048), false)).toThrow(CryptNameError);
  });
});
