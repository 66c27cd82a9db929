import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConf, readSection } from "../../../src/rclone/conf-document.js";
import { CryptConfigError, createNameCipher, cryptOptionsFromRemote } from "../../../src/rclone/crypt/index.js";
import { obscurePassword } from "../../../src/rclone/obscure.js";
import { hasRclone, makeTempDir, runRclone } from "../rclone-cli.js";

function configError(section: Record<string, string>): CryptConfigError {
  try {
    cryptOptionsFromRemote(section);
  } catch (error) {
    if (error instanceof CryptConfigError) return error;
    throw error;
  }
  throw new Error("no error");
}

describe("crypt options from an rclone.conf section", () => {
  it("applies rclone's defaults to a section with only a password", () => {
    expect(cryptOptionsFromRemote({ type: "crypt", remote: "gdrive:enc", password: obscurePassword("pw") })).toEqual({
      password: "pw",
      filenameEncryption: "standard",
      filenameEncoding: "base32",
      directoryNameEncryption: true,
    });
  });

  it("reveals both passwords and reads every option, in any case as rclone does", () => {
    const options = cryptOptionsFromRemote({
      type: "crypt",
      password: obscurePassword("pw"),
      password2: obscurePassword("salt"),
      filename_encryption: "Obfuscate",
      filename_encoding: "BASE32768",
      directory_name_encryption: "F",
      suffix: "none",
    });
    expect(options).toEqual({
      password: "pw",
      password2: "salt",
      filenameEncryption: "obfuscate",
      filenameEncoding: "base32768",
      directoryNameEncryption: false,
      suffix: "none",
    });
  });

  it.each([
    [{ type: "drive", password: obscurePassword("pw") }, "type", /not crypt/],
    [{ type: "crypt" }, "password", /needs its password/],
    [{ type: "crypt", password: "typed in plain!" }, "password", /is it obscured/],
    [{ type: "crypt", password: obscurePassword("pw"), password2: "x" }, "password2", /is it obscured/],
    [
      { type: "crypt", password: obscurePassword("pw"), filename_encryption: "strong" },
      "filename_encryption",
      /"strong" is not one of standard, obfuscate, off/,
    ],
    [
      { type: "crypt", password: obscurePassword("pw"), filename_encoding: "base16" },
      "filename_encoding",
      /not one of base32, base64, base32768/,
    ],
    [
      { type: "crypt", password: obscurePassword("pw"), directory_name_encryption: "yes" },
      "directory_name_encryption",
      /not true or false/,
    ],
  ])("names the key at fault (%#: %s)", (section, key, reason) => {
    const error = configError(section as Record<string, string>);
    expect(error.key).toBe(key);
    expect(error.message).toMatch(new RegExp(`^${key}: `));
    expect(error.message).toMatch(reason);
    expect(error.message).not.toContain("typed in plain");
  });

  it.skipIf(!hasRclone)("reads a crypt remote that `rclone config create` wrote, and names files as rclone does", () => {
    const dir = makeTempDir();
    const file = path.join(dir, "rclone.conf");
    runRclone(["--config", file, "config", "create", "store", "alias", `remote=${dir}`, "--non-interactive"]);
    const args = ["--config", file, "config", "create", "secret", "crypt", "remote=store:encrypted", "password=made by rclone"];
    runRclone([
      ...args,
      "password2=its salt",
      "filename_encoding=base64",
      "directory_name_encryption=false",
      "--obscure",
      "--non-interactive",
    ]);
    const section = Object.fromEntries(readSection(parseConf(readFileSync(file, "utf8")), "secret"));
    const options = cryptOptionsFromRemote(section);
    expect(options).toMatchObject({
      password: "made by rclone",
      password2: "its salt",
      filenameEncoding: "base64",
      directoryNameEncryption: false,
    });
    const names = ["TV/Show (2020)/Season 01/Show - S01E01.mkv", "Movies/Amélie (2001)/Amélie.mkv"];
    const encrypted = runRclone(["--config", file, "backend", "encode", "secret:", "--", ...names])
      .trim()
      .split("\n");
    const cipher = createNameCipher(options);
    expect(encrypted.map((name) => cipher.decryptPath(name, true))).toEqual(names);
  });
});

describe("the suffix of filename_encryption = off (rclone 1.61+; the installed 1.60 knows only .bin)", () => {
  const base = { password: "pw", filenameEncryption: "off", filenameEncoding: "base32", directoryNameEncryption: true } as const;

  it("appends .bin by default and only to files", () => {
    const cipher = createNameCipher(base);
    expect(cipher.encryptPath("TV/Show/x.mkv", true)).toBe("TV/Show/x.mkv.bin");
    expect(cipher.encryptSegment("Show", true)).toBe("Show");
    expect(cipher.decryptSegment("x.mkv.bin", false)).toBe("x.mkv");
    expect(cipher.decryptSegment("Show", true)).toBe("Show");
  });

  it("uses the suffix as set, adds a missing dot as rclone does, and none means no suffix", () => {
    expect(createNameCipher({ ...base, suffix: ".enc" }).encryptSegment("x.mkv", false)).toBe("x.mkv.enc");
    expect(createNameCipher({ ...base, suffix: "enc" }).decryptSegment("x.mkv.enc", false)).toBe("x.mkv");
    expect(() => createNameCipher({ ...base, suffix: "enc" }).decryptSegment("x.mkv.bin", false)).toThrow(/does not end in ".enc"/);
    const none = createNameCipher({ ...base, suffix: "None" });
    expect(none.encryptSegment("x.mkv", false)).toBe("x.mkv");
    expect(none.decryptSegment("x.mkv", false)).toBe("x.mkv");
    expect(() => none.decryptSegment("", false)).toThrow(/empty name/);
  });
});
