import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { CryptOptions } from "../../../src/rclone/crypt/index.js";
import { obscurePassword } from "../../../src/rclone/obscure.js";
import { makeTempDir } from "../rclone-cli.js";

/** The real rclone as the oracle for crypt names: a crypt remote `secret:` over a local alias, in a real rclone.conf. */
export interface RcloneCrypt {
  file: string;
  /** The [secret] section as written (obscured passwords), for cryptOptionsFromRemote. */
  section: Record<string, string>;
  /** `rclone backend encode secret: …`: each name encrypted as a file path. */
  encode(names: readonly string[]): string[];
  /** `rclone backend decode secret: …`: each name decrypted as a file path; throws when rclone refuses one. */
  decode(names: readonly string[]): string[];
  /** Whether rclone decodes `name` (exit 0) or refuses it. */
  accepts(name: string): boolean;
}

export function writeRcloneCrypt(options: CryptOptions): RcloneCrypt {
  const dir = makeTempDir();
  const file = path.join(dir, "rclone.conf");
  const section: Record<string, string> = {
    type: "crypt",
    remote: "store:encrypted",
    filename_encryption: options.filenameEncryption,
    filename_encoding: options.filenameEncoding,
    directory_name_encryption: String(options.directoryNameEncryption),
    password: obscurePassword(options.password),
  };
  if (options.password2 !== undefined) section.password2 = obscurePassword(options.password2);
  if (options.suffix !== undefined) section.suffix = options.suffix;
  const lines = Object.entries(section).map(([key, value]) => `${key} = ${value}`);
  writeFileSync(file, `[store]\ntype = alias\nremote = ${path.join(dir, "store")}\n\n[secret]\n${lines.join("\n")}\n`, { mode: 0o600 });
  const run = (command: string, names: readonly string[]): string[] => {
    // "--" before the names: an encrypted or generated name may start with "-".
    const out = execFileSync("rclone", ["--config", file, "backend", command, "secret:", "--", ...names], {
      encoding: "utf8",
      env: { ...process.env, RCLONE_CONFIG_PASS: undefined },
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
    const lines = out.split("\n");
    lines.pop();
    if (lines.length !== names.length) throw new Error(`rclone backend ${command} gave ${lines.length} lines for ${names.length} names`);
    return lines;
  };
  return {
    file,
    section,
    encode: (names) => run("encode", names),
    decode: (names) => run("decode", names),
    accepts: (name) =>
      spawnSync("rclone", ["--config", file, "backend", "decode", "secret:", "--", name], { stdio: "ignore" }).status === 0,
  };
}

/** Every name-related combination rclone 1.60 has (it has no `suffix` option: ".bin" is the only suffix it can check). */
export function everyCombination(): CryptOptions[] {
  const combos: CryptOptions[] = [];
  for (const password2 of [undefined, "pepper and salt"]) {
    for (const directoryNameEncryption of [true, false]) {
      for (const filenameEncoding of ["base32", "base64", "base32768"] as const) {
        combos.push({ password: "crypt pässword", password2, filenameEncryption: "standard", filenameEncoding, directoryNameEncryption });
      }
      for (const filenameEncryption of ["obfuscate", "off"] as const) {
        combos.push({ password: "crypt pässword", password2, filenameEncryption, filenameEncoding: "base32", directoryNameEncryption });
      }
    }
  }
  return combos;
}

export function describeOptions(options: CryptOptions): string {
  const { filenameEncryption, filenameEncoding, directoryNameEncryption, password2 } = options;
  const encoding = filenameEncryption === "standard" ? `/${filenameEncoding}` : "";
  return `${filenameEncryption}${encoding}, directory names ${directoryNameEncryption ? "encrypted" : "plain"}, ${password2 ? "with" : "without"} password2`;
}
