import { revealPassword } from "../obscure.js";
import type { NameEncodingName } from "./encodings.js";
import { CryptConfigError } from "./errors.js";

export type FilenameEncryption = "standard" | "obfuscate" | "off";

/** The name-related options of an rclone crypt remote, passwords already revealed. */
export interface CryptOptions {
  password: string;
  password2?: string;
  filenameEncryption: FilenameEncryption;
  filenameEncoding: NameEncodingName;
  directoryNameEncryption: boolean;
  /** For "off": appended to file names; default ".bin"; "none" means no suffix; a missing leading "." is added (as rclone does). */
  suffix?: string;
}

const ENCRYPTIONS: readonly FilenameEncryption[] = ["standard", "obfuscate", "off"];
const ENCODINGS: readonly NameEncodingName[] = ["base32", "base64", "base32768"];
// Go's strconv.ParseBool, which rclone uses for boolean options.
const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

function choose<T extends string>(section: Record<string, string>, key: string, allowed: readonly T[], fallback: T): T {
  const raw = section[key];
  if (raw === undefined || raw === "") return fallback;
  const value = raw.toLowerCase();
  const found = allowed.find((option) => option === value);
  if (!found) throw new CryptConfigError(key, `${JSON.stringify(raw)} is not one of ${allowed.join(", ")}`);
  return found;
}

function reveal(section: Record<string, string>, key: string): string {
  const obscured = section[key] ?? "";
  if (obscured === "") return "";
  try {
    return revealPassword(obscured);
  } catch (error) {
    // The message is rclone's wording about the form, never the value.
    throw new CryptConfigError(key, error instanceof Error ? error.message : "cannot be revealed");
  }
}

/**
 * Reads the options of an rclone.conf [crypt] section (values as written in
 * the file), reveals `password` and `password2`, and applies rclone's
 * defaults. Throws CryptConfigError naming the key at fault.
 */
export function cryptOptionsFromRemote(section: Record<string, string>): CryptOptions {
  if (section.type !== undefined && section.type !== "crypt") {
    throw new CryptConfigError("type", `this remote is of type ${JSON.stringify(section.type)}, not crypt`);
  }
  const password = reveal(section, "password");
  if (password === "") throw new CryptConfigError("password", "not set: a crypt remote needs its password");
  const password2 = reveal(section, "password2");
  const rawDirectories = section.directory_name_encryption;
  let directoryNameEncryption = true;
  if (rawDirectories !== undefined && rawDirectories !== "") {
    if (!TRUE.has(rawDirectories) && !FALSE.has(rawDirectories)) {
      throw new CryptConfigError("directory_name_encryption", `${JSON.stringify(rawDirectories)} is not true or false`);
    }
    directoryNameEncryption = TRUE.has(rawDirectories);
  }
  const options: CryptOptions = {
    password,
    filenameEncryption: choose(section, "filename_encryption", ENCRYPTIONS, "standard"),
    filenameEncoding: choose(section, "filename_encoding", ENCODINGS, "base32"),
    directoryNameEncryption,
  };
  if (password2 !== "") options.password2 = password2;
  if (section.suffix !== undefined && section.suffix !== "") options.suffix = section.suffix;
  return options;
}
