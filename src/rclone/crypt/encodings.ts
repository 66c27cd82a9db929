import { decodeBase32768, encodeBase32768 } from "./base32768.js";

/** How encrypted name bytes become text (rclone's filename_encoding). decode throws on text it cannot read. */
export interface NameEncoding {
  encode(bytes: Uint8Array): string;
  decode(text: string): Uint8Array;
}

export type NameEncodingName = "base32" | "base64" | "base32768";

const BASE32_HEX = "0123456789abcdefghijklmnopqrstuv";
/** Character code -> value, -1 where the character is not in the alphabet (either case). */
const BASE32_VALUES = new Int8Array(128).fill(-1);
[...BASE32_HEX].forEach((c, i) => {
  BASE32_VALUES[c.charCodeAt(0)] = i;
  BASE32_VALUES[c.toUpperCase().charCodeAt(0)] = i;
});
/** Tail lengths (characters after the last full group of 8) that no byte count produces. */
const BAD_BASE32_TAILS = new Set([1, 3, 6]);

/** RFC 4648 base32 with the "hex" alphabet, lower case, no padding; decoding ignores case, like rclone. */
const base32: NameEncoding = {
  encode(bytes) {
    let out = "";
    let acc = 0;
    let bits = 0;
    for (const byte of bytes) {
      acc = ((acc << 8) | byte) & 0xfff;
      bits += 8;
      while (bits >= 5) {
        bits -= 5;
        out += BASE32_HEX[(acc >> bits) & 31];
      }
    }
    if (bits > 0) out += BASE32_HEX[(acc << (5 - bits)) & 31];
    return out;
  },
  decode(text) {
    if (text.endsWith("=")) throw new Error("base32 padding is not allowed");
    if (BAD_BASE32_TAILS.has(text.length % 8)) throw new Error("illegal base32 length");
    const out = new Uint8Array(Math.floor((text.length * 5) / 8));
    let length = 0;
    let acc = 0;
    let bits = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const value = code < 128 ? BASE32_VALUES[code]! : -1;
      if (value < 0) throw new Error(`illegal base32 data at input byte ${i}`);
      acc = ((acc << 5) | value) & 0xfff;
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        out[length++] = (acc >> bits) & 0xff;
      }
    }
    return out.subarray(0, length);
  },
};

/** URL-safe base64 without padding. */
const base64: NameEncoding = {
  encode: (bytes) => Buffer.from(bytes).toString("base64url"),
  decode(text) {
    // Buffer would skip characters it does not know; rclone refuses them.
    if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("illegal base64 data");
    if (text.length % 4 === 1) throw new Error("illegal base64 length");
    return Buffer.from(text, "base64url");
  },
};

const base32768: NameEncoding = { encode: encodeBase32768, decode: decodeBase32768 };

export const NAME_ENCODINGS: Readonly<Record<NameEncodingName, NameEncoding>> = { base32, base64, base32768 };
