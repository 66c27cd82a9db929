import { createEme, EME_MAX_BYTES } from "./eme.js";
import { NAME_ENCODINGS } from "./encodings.js";
import { CryptNameError } from "./errors.js";
import { deriveNameKeys } from "./keys.js";
import { deobfuscateSegment, obfuscateSegment, obfuscationOffset } from "./obfuscate.js";
import type { CryptOptions } from "./options.js";
import { padPkcs7, unpadPkcs7 } from "./pkcs7.js";
import { restoreVersion, takeVersion } from "./version.js";

/** Encrypts and decrypts names exactly as an rclone crypt remote with these options names its files. */
export interface NameCipher {
  /**
   * Decrypts one name as rclone does for a listed file (isDir false) or
   * directory (isDir true). Throws CryptNameError when it is not a name this
   * remote could have written.
   */
  decryptSegment(name: string, isDir: boolean): string;
  /** Encrypts one name as rclone would store that file or directory. */
  encryptSegment(name: string, isDir: boolean): string;
  /** Decrypts a "/"-separated path below the crypt root, as rclone's DecryptFileName (or DecryptDirName when lastIsFile is false). */
  decryptPath(path: string, lastIsFile: boolean): string;
  /** Encrypts a "/"-separated path, as rclone's EncryptFileName (or EncryptDirName when lastIsFile is false). */
  encryptPath(path: string, lastIsFile: boolean): string;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function suffixOf(option: string | undefined): string {
  if (option === undefined) return ".bin";
  if (option.toLowerCase() === "none") return "";
  return option.startsWith(".") ? option : `.${option}`;
}

/** Derives the keys (scrypt, about 50 ms: do it once per remote) and returns the name cipher. */
export function createNameCipher(options: CryptOptions): NameCipher {
  const keys = deriveNameKeys(options.password, options.password2 ?? "");
  const eme = createEme(keys.nameKey, keys.nameTweak);
  const encoding = NAME_ENCODINGS[options.filenameEncoding];
  const offset = obfuscationOffset(keys.nameKey);
  const suffix = suffixOf(options.suffix);
  const mode = options.filenameEncryption;

  /** One segment through the cipher, no version stamp and no suffix. */
  function encryptName(plain: string): string {
    if (plain === "") return "";
    if (mode === "obfuscate") return obfuscateSegment(plain, offset);
    const bytes = Buffer.from(plain, "utf8");
    // rclone itself stops with a panic here; Drive has no shorter limit of its own.
    if (bytes.length >= EME_MAX_BYTES)
      throw new CryptNameError(plain, `a name of ${bytes.length} bytes is longer than rclone can encrypt (2,047)`);
    return encoding.encode(eme.encrypt(padPkcs7(bytes)));
  }

  function decryptName(text: string): string {
    if (text === "") return "";
    if (mode === "obfuscate") {
      const plain = deobfuscateSegment(text, offset);
      if (plain === undefined) throw new CryptNameError(text, "not an obfuscated name (no number and dot in front)");
      return plain;
    }
    let raw: Uint8Array;
    try {
      raw = encoding.decode(text);
    } catch (error) {
      throw new CryptNameError(text, `not ${options.filenameEncoding} (${error instanceof Error ? error.message : "cannot decode"})`);
    }
    if (raw.length === 0 || raw.length % 16 !== 0) throw new CryptNameError(text, "not a whole number of 16-byte blocks");
    if (raw.length > EME_MAX_BYTES) throw new CryptNameError(text, "too long after decoding");
    const plain = unpadPkcs7(eme.decrypt(raw));
    if (!plain) throw new CryptNameError(text, "bad padding after decryption (another password, or not made by this remote)");
    try {
      return strictUtf8.decode(plain);
    } catch {
      throw new CryptNameError(text, "decrypts to bytes that are not UTF-8");
    }
  }

  /** A path's leaf: the version stamp is kept out of the cipher, as in rclone. */
  function throughLeaf(segment: string, transform: (text: string) => string): string {
    const { name, stamp } = takeVersion(segment);
    return restoreVersion(transform(name), stamp);
  }

  function decryptOff(path: string): string {
    if (path.length <= suffix.length || !path.endsWith(suffix)) {
      throw new CryptNameError(path, suffix === "" ? "empty name" : `does not end in ${JSON.stringify(suffix)}`);
    }
    const plain = path.slice(0, path.length - suffix.length);
    if (takeVersion(plain).name === "") throw new CryptNameError(path, "nothing but a version stamp");
    return plain;
  }

  function mapPath(path: string, lastIsFile: boolean, transform: (text: string) => string): string {
    if (!lastIsFile && !options.directoryNameEncryption) return path;
    const segments = path.split("/");
    const last = segments.length - 1;
    return segments
      .map((segment, i) => {
        if (i !== last) return options.directoryNameEncryption ? transform(segment) : segment;
        return throughLeaf(segment, transform);
      })
      .join("/");
  }

  function encryptPath(path: string, lastIsFile: boolean): string {
    if (mode === "off") return lastIsFile ? path + suffix : path;
    return mapPath(path, lastIsFile, encryptName);
  }

  function decryptPath(path: string, lastIsFile: boolean): string {
    if (mode === "off") return lastIsFile ? decryptOff(path) : path;
    return mapPath(path, lastIsFile, decryptName);
  }

  return {
    decryptPath,
    encryptPath,
    decryptSegment: (name, isDir) => decryptPath(name, !isDir),
    encryptSegment: (name, isDir) => encryptPath(name, !isDir),
  };
}
