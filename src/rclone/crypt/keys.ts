import { scryptSync } from "node:crypto";

/** rclone's built-in salt, used when password2 is empty. */
const DEFAULT_SALT = Buffer.from("a80df43a8fbd0308a7cab83e581f86b1", "hex");
const DATA_KEY_BYTES = 32;
const NAME_KEY_BYTES = 32;
const NAME_TWEAK_BYTES = 16;
const KEY_BYTES = DATA_KEY_BYTES + NAME_KEY_BYTES + NAME_TWEAK_BYTES;

export interface NameKeys {
  /** AES-256 key for the names (EME) and the obfuscation offset. */
  nameKey: Buffer;
  /** EME tweak. */
  nameTweak: Buffer;
}

/**
 * rclone's key derivation: scrypt(password, password2 or the default salt,
 * N=16384, r=8, p=1) to 80 bytes, split data key | name key | name tweak.
 * An empty password gives all-zero keys, as in rclone. scrypt needs
 * 128·N·r = 16 MiB, so maxmem is raised above it.
 */
export function deriveNameKeys(password: string, password2 = ""): NameKeys {
  const salt = password2 === "" ? DEFAULT_SALT : Buffer.from(password2, "utf8");
  const key =
    password === ""
      ? Buffer.alloc(KEY_BYTES)
      : scryptSync(Buffer.from(password, "utf8"), salt, KEY_BYTES, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return {
    nameKey: key.subarray(DATA_KEY_BYTES, DATA_KEY_BYTES + NAME_KEY_BYTES),
    nameTweak: key.subarray(DATA_KEY_BYTES + NAME_KEY_BYTES, KEY_BYTES),
  };
}
