import { createEme } from "./eme.js";
import { NAME_ENCODINGS } from "./encodings.js";
import { CryptNameError } from "./errors.js";
import { deriveNameKeys } from "./keys.js";
import { deobfuscateSegment, obfuscateSegment, obfuscationOffset } from "./obfuscate.js";
import type { CryptOptions } from "./options.js";
import { createStandardNames } from "./standard.js";
import { restoreVersion, takeVersion } from "./version.js";

/** Encrypts and decrypts names exactly as an rclone crypt remote with these options names its files. */
export interface NameCipher {
  /**
   * Decrypts one name as rclone does for a listed file (isDir false) or
   * directory (isDir true). Throws CryptNameError when it is not a name this
   * remote could have written.
   */
  decryptSegment(name: string, isDir: boolean): string;
  /**
   * decryptSegment over many names of one kind (a page of changes): the same
   * results, each failure returned in its place, several times faster for
   * standard names since the AES runs once for the whole batch.
   */
  decryptSegments(names: readonly string[], isDir: boolean): Array<string | CryptNameError>;
  /** Encrypts one name as rclone would store that file or directory. */
  encryptSegment(name: string, isDir: boolean): string;
  /** Decrypts a "/"-separated path below the crypt root, as rclone's DecryptFileName (or DecryptDirName when lastIsFile is false). */
  decryptPath(path: string, lastIsFile: boolean): string;
  /** Encrypts a "/"-separated path, as rclone's EncryptFileName (or EncryptDirName when lastIsFile is false). */
  encryptPath(path: string, lastIsFile: boolean): string;
}

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

  const standard = createStandardNames(eme, encoding, options.filenameEncoding);

  /** One segment through the cipher, no version stamp and no suffix. */
  function encryptName(plain: string): string {
    return mode === "obfuscate" ? obfuscateSegment(plain, offset) : standard.encrypt(plain);
  }

  function decryptName(text: string): string {
    if (mode !== "obfuscate") return standard.decrypt(text);
    const plain = deobfuscateSegment(text, offset);
    if (plain === undefined) throw new CryptNameError(text, "not an obfuscated name (no number and dot in front)");
    return plain;
  }

  function decryptOff(path: string): string {
    if (path.length <= suffix.length || !path.endsWith(suffix)) {
      throw new CryptNameError(path, suffix === "" ? "empty name" : `does not end in ${JSON.stringify(suffix)}`);
    }
    const plain = path.slice(0, path.length - suffix.length);
    if (takeVersion(plain).name === "") throw new CryptNameError(path, "nothing but a version stamp");
    return plain;
  }

  /** The segments rclone runs through the cipher (all, or only the leaf), the leaf's version stamp kept out as rclone does. */
  function mapPath(path: string, lastIsFile: boolean, transformAll: (texts: string[]) => string[]): string {
    if (!lastIsFile && !options.directoryNameEncryption) return path;
    const segments = path.split("/");
    const leaf = takeVersion(segments.pop()!);
    const inner = options.directoryNameEncryption ? segments : [];
    const done = transformAll([...inner, leaf.name]);
    const out = options.directoryNameEncryption ? done.slice(0, -1) : segments;
    out.push(restoreVersion(done[done.length - 1]!, leaf.stamp));
    return out.join("/");
  }

  function decryptAll(texts: string[]): string[] {
    if (mode !== "standard") return texts.map(decryptName);
    // One pass through the AES for every segment of the path.
    return standard.decryptMany(texts).map((result) => {
      if (result instanceof CryptNameError) throw result;
      return result;
    });
  }

  function encryptPath(path: string, lastIsFile: boolean): string {
    if (mode === "off") return lastIsFile ? path + suffix : path;
    return mapPath(path, lastIsFile, (texts) => texts.map(encryptName));
  }

  function decryptPath(path: string, lastIsFile: boolean): string {
    if (mode === "off") return lastIsFile ? decryptOff(path) : path;
    return mapPath(path, lastIsFile, decryptAll);
  }

  function decryptSegments(names: readonly string[], isDir: boolean): Array<string | CryptNameError> {
    if (mode !== "standard" || (isDir && !options.directoryNameEncryption) || names.some((name) => name.includes("/"))) {
      return names.map((name) => {
        try {
          return decryptSegment(name, isDir);
        } catch (error) {
          if (error instanceof CryptNameError) return error;
          throw error;
        }
      });
    }
    const unversioned = names.map(takeVersion);
    const plain = standard.decryptMany(unversioned.map((item) => item.name));
    return plain.map((result, i) => (typeof result === "string" ? restoreVersion(result, unversioned[i]!.stamp) : result));
  }

  function decryptSegment(name: string, isDir: boolean): string {
    // rclone's Drive backend shows a "/" in a Drive name as "／", which no crypt name holds.
    if (name.includes("/")) throw new CryptNameError(name, "one name cannot hold a /");
    return decryptPath(name, !isDir);
  }

  return {
    decryptSegments,
    decryptPath,
    encryptPath,
    decryptSegment,
    encryptSegment: (name, isDir) => encryptPath(name, !isDir),
  };
}
