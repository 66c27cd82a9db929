import { EME_MAX_BYTES, type WideBlockCipher } from "./eme.js";
import type { NameEncoding, NameEncodingName } from "./encodings.js";
import { CryptNameError } from "./errors.js";
import { padPkcs7, unpadPkcs7 } from "./pkcs7.js";

/** filename_encryption = standard for one segment: PKCS#7, EME, then the text encoding. */
export interface StandardNames {
  encrypt(plain: string): string;
  decrypt(text: string): string;
  /** Like decrypt for each text, with one pass through the AES for all of them; a failure is returned in its place. */
  decryptMany(texts: readonly string[]): Array<string | CryptNameError>;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export function createStandardNames(eme: WideBlockCipher, encoding: NameEncoding, encodingName: NameEncodingName): StandardNames {
  function decode(text: string): Uint8Array {
    let raw: Uint8Array;
    try {
      raw = encoding.decode(text);
    } catch (error) {
      throw new CryptNameError(text, `not ${encodingName} (${error instanceof Error ? error.message : "cannot decode"})`);
    }
    if (raw.length === 0 || raw.length % 16 !== 0) throw new CryptNameError(text, "not a whole number of 16-byte blocks");
    if (raw.length > EME_MAX_BYTES) throw new CryptNameError(text, "too long after decoding");
    return raw;
  }

  function finish(text: string, padded: Uint8Array): string {
    const plain = unpadPkcs7(padded);
    if (!plain) throw new CryptNameError(text, "bad padding after decryption (another password, or not made by this remote)");
    try {
      return strictUtf8.decode(plain);
    } catch {
      throw new CryptNameError(text, "decrypts to bytes that are not UTF-8");
    }
  }

  return {
    encrypt(plain) {
      if (plain === "") return "";
      const bytes = Buffer.from(plain, "utf8");
      // rclone itself stops with a panic here; Drive has no shorter limit of its own.
      if (bytes.length >= EME_MAX_BYTES)
        throw new CryptNameError(plain, `a name of ${bytes.length} bytes is longer than rclone can encrypt (2,047)`);
      return encoding.encode(eme.encrypt(padPkcs7(bytes)));
    },
    decrypt(text) {
      if (text === "") return "";
      return finish(text, eme.decrypt(decode(text)));
    },
    decryptMany(texts) {
      const results: Array<string | CryptNameError> = texts.map(() => "");
      const pending: Array<{ index: number; raw: Uint8Array }> = [];
      texts.forEach((text, index) => {
        if (text === "") return;
        try {
          pending.push({ index, raw: decode(text) });
        } catch (error) {
          results[index] = error as CryptNameError;
        }
      });
      const padded = eme.decryptMany(pending.map((item) => item.raw));
      pending.forEach(({ index }, k) => {
        try {
          results[index] = finish(texts[index]!, padded[k]!);
        } catch (error) {
          results[index] = error as CryptNameError;
        }
      });
      return results;
    },
  };
}
