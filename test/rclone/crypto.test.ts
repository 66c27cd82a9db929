import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decryptConfig, encryptConfig, isEncryptedConfig } from "../../src/rclone/config-crypt.js";
import { obscurePassword, revealPassword } from "../../src/rclone/obscure.js";
import { dumpConfig, hasRclone, makeTempDir, runRclone } from "./rclone-cli.js";
import { hasPython, runInPty } from "./pty.js";

const PLAIN = "[media]\ntype = alias\nremote = /srv/media\n\n";

describe("config encryption and obscure", () => {
  it("decrypts what it encrypts and refuses a wrong password", () => {
    const text = encryptConfig(PLAIN, "correct horse");
    expect(text.startsWith("# Encrypted rclone configuration File\n\nRCLONE_ENCRYPT_V0:\n")).toBe(true);
    expect(text.endsWith("\n")).toBe(false);
    expect(isEncryptedConfig(text)).toBe(true);
    expect(decryptConfig(text, "correct horse")).toBe(PLAIN);
    expect(() => decryptConfig(text, "wrong")).toThrow("wrong password");
  });

  it("reads wrapped base64 and refuses newer or truncated formats with rclone's messages", () => {
    const text = encryptConfig(PLAIN, "pw");
    const [head, payload] = text.split("RCLONE_ENCRYPT_V0:\n") as [string, string];
    const wrapped = `${head}RCLONE_ENCRYPT_V0:\n${payload.match(/.{1,64}/g)!.join("\n")}\n`;
    expect(decryptConfig(wrapped, "pw")).toBe(PLAIN);
    expect(() => isEncryptedConfig("RCLONE_ENCRYPT_V1:\nabc")).toThrow("update rclone");
    expect(() => decryptConfig("RCLONE_ENCRYPT_V0:\nAAAA", "pw")).toThrow("configuration data too short");
  });

  it("refuses a file whose payload was changed by one bit", () => {
    const text = encryptConfig(PLAIN, "pw");
    const [head, payload] = text.split("RCLONE_ENCRYPT_V0:\n") as [string, string];
    const box = Buffer.from(payload, "base64");
    box[box.length - 1]! ^= 1;
    expect(() => decryptConfig(`${head}RCLONE_ENCRYPT_V0:\n${box.toString("base64")}`, "pw")).toThrow("wrong password");
  });

  it("applies NFKC to the configuration password as rclone does", () => {
    expect(decryptConfig(encryptConfig(PLAIN, "\uFB01le pw"), "file pw")).toBe(PLAIN);
  });

  it("reveals what it obscures and refuses text that is not obscured", () => {
    const obscured = obscurePassword("p@ss wörd/+?");
    expect(obscured).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(obscurePassword("p@ss wörd/+?")).not.toBe(obscured);
    expect(revealPassword(obscured)).toBe("p@ss wörd/+?");
    expect(() => revealPassword("plain text!")).toThrow("is it obscured?");
  });
});

describe.skipIf(!hasRclone)("config encryption and obscure against real rclone", () => {
  it("writes an encrypted file rclone opens with RCLONE_CONFIG_PASS", () => {
    const file = path.join(makeTempDir(), "rclone.conf");
    writeFileSync(file, encryptConfig(PLAIN, "s3cret pass"));
    expect(dumpConfig(file, { RCLONE_CONFIG_PASS: "s3cret pass" })).toEqual({ media: { type: "alias", remote: "/srv/media" } });
  });

  it.skipIf(!hasPython)("reads a file rclone encrypted through its own set-password menu", async () => {
    const file = path.join(makeTempDir(), "rclone.conf");
    writeFileSync(file, PLAIN);
    const { status } = await runInPty(
      [
        ["e/n/d/r/c/s/q>", "s"],
        ["a/q>", "a"],
        ["password:", "typed in rclone"],
        ["password:", "typed in rclone"],
        ["c/u/q>", "q"],
        ["e/n/d/r/c/s/q>", "q"],
      ],
      ["rclone", "--config", file, "config"],
    );
    expect(status).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(isEncryptedConfig(text)).toBe(true);
    expect(decryptConfig(text, "typed in rclone")).toContain("[media]\ntype = alias\nremote = /srv/media\n");
  });

  it("obscures passwords that `rclone reveal` reveals, and reveals what `rclone obscure` makes", () => {
    // "--" ends rclone's flags: a random IV gives an obscured text starting with "-" about once in 64.
    expect(runRclone(["reveal", "--", obscurePassword("p@ss wörd/+?")]).trim()).toBe("p@ss wörd/+?");
    const dashFirst = obscurePassword("dash first", Buffer.from("f8".repeat(16), "hex"));
    expect(dashFirst.startsWith("-")).toBe(true);
    expect(runRclone(["reveal", "--", dashFirst]).trim()).toBe("dash first");
    expect(revealPassword(runRclone(["obscure", "from rclone"]).trim())).toBe("from rclone");
  });

  it("writes a crypt remote that `rclone copy` uses over a local alias remote", () => {
    const dir = makeTempDir();
    const file = path.join(dir, "rclone.conf");
    mkdirSync(path.join(dir, "store"));
    mkdirSync(path.join(dir, "src"));
    writeFileSync(path.join(dir, "src", "movie.mkv"), "frames");
    const password = obscurePassword("crypt password");
    const salt = obscurePassword("crypt salt");
    writeFileSync(
      file,
      `[store]\ntype = alias\nremote = ${path.join(dir, "store")}\n\n[secret]\ntype = crypt\nremote = store:encrypted\nfilename_encryption = standard\ndirectory_name_encryption = true\npassword = ${password}\npassword2 = ${salt}\n\n`,
    );
    runRclone(["--config", file, "copy", path.join(dir, "src"), "secret:films"]);
    expect(runRclone(["--config", file, "cat", "secret:films/movie.mkv"])).toBe("frames");
    const stored = readdirSync(path.join(dir, "store", "encrypted"));
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toBe("films");
  });
});
