import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEme } from "../../../src/rclone/crypt/eme.js";
import { CryptNameError, type CryptOptions, createNameCipher } from "../../../src/rclone/crypt/index.js";
import { deriveNameKeys } from "../../../src/rclone/crypt/keys.js";
import { padPkcs7 } from "../../../src/rclone/crypt/pkcs7.js";
import { hasRclone } from "../rclone-cli.js";
import { writeRcloneCrypt } from "./rclone-crypt.js";

const BASE: CryptOptions = { password: "pw", filenameEncryption: "standard", filenameEncoding: "base32", directoryNameEncryption: true };
const OTHER_PASSWORD = createNameCipher({ ...BASE, password: "another" });

/** Names a crypt folder may hold that this remote never wrote, per option set. */
const BAD: Array<[string, Partial<CryptOptions>, string[]]> = [
  [
    "standard/base32",
    {},
    [
      "Not Encrypted.mkv",
      "abc",
      "fcql60kk4t41ismm0ko00bsd74==",
      "0123456789abcdef",
      "0".repeat(3280),
      OTHER_PASSWORD.encryptSegment("movie.mkv", false),
    ],
  ],
  ["standard/base64", { filenameEncoding: "base64" }, ["abc$def", "a", "AAAAAAAAAAAAAAAAAAAAAA==", "AAAAAAAAAAAA"]],
  ["standard/base32768", { filenameEncoding: "base32768" }, ["plain name", "ƀ媒", "媒腻㐤┖ꈳ埳"]],
  ["obfuscate", { filenameEncryption: "obfuscate" }, ["no dot here", "x.abc"]],
  ["off", { filenameEncryption: "off" }, ["movie.mkv", ".bin"]],
];

describe("names that do not decode", () => {
  for (const [label, overrides, names] of BAD) {
    it(`raises CryptNameError for names this remote never wrote (${label})`, () => {
      const cipher = createNameCipher({ ...BASE, ...overrides });
      for (const name of names) {
        expect(() => cipher.decryptSegment(name, false), name).toThrow(CryptNameError);
        expect(() => cipher.decryptPath(name, true), name).toThrow(CryptNameError);
      }
      // In a batch, each bad name comes back as its error and the good ones around it still decode.
      const good = cipher.encryptSegment("good.mkv", false);
      const batch = cipher.decryptSegments([good, ...names, good], false);
      expect(batch[0]).toBe("good.mkv");
      expect(batch.at(-1)).toBe("good.mkv");
      for (const result of batch.slice(1, -1)) expect(result).toBeInstanceOf(CryptNameError);
    });

    it.skipIf(!hasRclone)(`are refused by the real rclone too (${label})`, () => {
      const rclone = writeRcloneCrypt({ ...BASE, ...overrides });
      for (const name of names) expect(rclone.accepts(name), name).toBe(false);
    });
  }

  it("raises CryptNameError for a bad directory name inside a path", () => {
    const cipher = createNameCipher(BASE);
    const file = cipher.encryptSegment("movie.mkv", false);
    expect(() => cipher.decryptPath(`Not Encrypted/${file}`, true)).toThrow(CryptNameError);
    expect(createNameCipher({ ...BASE, directoryNameEncryption: false }).decryptPath(`Plain/${file}`, true)).toBe("Plain/movie.mkv");
  });

  it("raises CryptNameError for a name that decrypts to bytes that are not UTF-8 (rclone would pass the bytes on)", () => {
    const keys = deriveNameKeys(BASE.password);
    const raw = createEme(keys.nameKey, keys.nameTweak).encrypt(padPkcs7(Buffer.from([0x66, 0xff, 0xfe])));
    const name = Buffer.from(raw).toString("base64url");
    const cipher = createNameCipher({ ...BASE, filenameEncoding: "base64" });
    expect(() => cipher.decryptSegment(name, false)).toThrow(/not UTF-8/);
  });

  it("says which name and why, without a password", () => {
    const cipher = createNameCipher(BASE);
    const error = (() => {
      try {
        cipher.decryptSegment("Not Encrypted.mkv", true);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(CryptNameError);
    expect((error as CryptNameError).cryptName).toBe("Not Encrypted.mkv");
    expect((error as CryptNameError).message).toMatch(/Not Encrypted\.mkv.*not base32/);
    expect((error as CryptNameError).message).not.toContain(BASE.password);
  });

  it("never fails with anything but CryptNameError, whatever the text", () => {
    const ciphers = [
      createNameCipher(BASE),
      createNameCipher({ ...BASE, filenameEncoding: "base64" }),
      createNameCipher({ ...BASE, filenameEncoding: "base32768" }),
      createNameCipher({ ...BASE, filenameEncryption: "obfuscate" }),
      createNameCipher({ ...BASE, filenameEncryption: "off" }),
    ];
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 80 }),
      fc.string({ unit: fc.constantFrom(..."0123456789abcdefghijklmnopqrstuvV=-_.!+/"), maxLength: 80 }),
      fc.string({ unit: fc.constantFrom("媒", "腻", "ƀ", "ʀ", "ꡀ", "a"), maxLength: 40 }),
      fc.tuple(fc.integer({ min: -100000, max: 100000 }), fc.string({ unit: "binary" })).map(([n, rest]) => `${n}.${rest}`),
    );
    fc.assert(
      fc.property(text, fc.boolean(), (name, isDir) => {
        for (const cipher of ciphers) {
          let single: string | CryptNameError;
          try {
            single = cipher.decryptSegment(name, isDir);
          } catch (error) {
            expect(error).toBeInstanceOf(CryptNameError);
            single = error as CryptNameError;
          }
          expect(cipher.decryptSegments([name], isDir)).toEqual([single]);
        }
      }),
      { numRuns: 1500 },
    );
  });
});
