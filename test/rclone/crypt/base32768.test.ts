import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Base32768Error, decodeBase32768, encodeBase32768 } from "../../../src/rclone/crypt/base32768.js";

describe("Base32768", () => {
  it("encodes the published example", () => {
    const hello = Buffer.from("hello world");
    expect(encodeBase32768(hello)).toBe("媒腻㐤┖ꈳ埳");
    expect(Buffer.from(decodeBase32768("媒腻㐤┖ꈳ埳"))).toEqual(hello);
  });

  it("round-trips every length from 0 to 64 bytes, 15 bits a character", () => {
    for (let length = 0; length <= 64; length++) {
      const bytes = randomBytes(length);
      const text = encodeBase32768(bytes);
      expect(text.length).toBe(Math.ceil((length * 8) / 15));
      expect(Buffer.from(decodeBase32768(text))).toEqual(bytes);
    }
  });

  it("refuses foreign characters, a 7-bit character before the end, and padding that is not all 1s", () => {
    expect(() => decodeBase32768("媒a")).toThrow(Base32768Error);
    expect(() => decodeBase32768("ƀ媒")).toThrow(/7-bit character before the end/);
    // One byte: 8 data bits then seven 1s; here the padding holds a 0.
    const good = encodeBase32768(Buffer.from([0x41]));
    const bad = String.fromCharCode(good.charCodeAt(0) - 1);
    expect(() => decodeBase32768(bad)).toThrow(/padding/);
  });
});
