/*
 * Base32768 (qntm's published encoding; rclone's filename_encoding =
 * base32768): bits taken most significant first, 15 at a time, each written as
 * one BMP character from a repertoire of 1,024 blocks of 32 code points. A
 * tail of 1 to 7 bits is padded with 1s to 7 bits and written from a second,
 * 4-block repertoire; a tail of 8 to 14 bits is padded with 1s to 15 bits.
 */

/** The 15-bit repertoire: [first, last] code points of runs of whole 32-point blocks, in order. */
// biome-ignore format: a table of code point runs
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x4a0, 0x4bf], [0x500, 0x51f], [0x680, 0x6bf], [0x760, 0x79f], [0x7c0, 0x7df], [0x1000, 0x101f], [0x10a0, 0x10bf],
  [0x1100, 0x115f], [0x1180, 0x119f], [0x11e0, 0x123f], [0x1260, 0x127f], [0x12e0, 0x12ff], [0x1320, 0x133f],
  [0x13a0, 0x13df], [0x1420, 0x165f], [0x16a0, 0x16df], [0x1780, 0x179f], [0x1820, 0x185f], [0x18c0, 0x18df],
  [0x1980, 0x199f], [0x19e0, 0x19ff], [0x1a20, 0x1a3f], [0x1bc0, 0x1bdf], [0x1c00, 0x1c1f], [0x1d00, 0x1d1f],
  [0x21e0, 0x21ff], [0x22c0, 0x22df], [0x2340, 0x23df], [0x2400, 0x241f], [0x2500, 0x275f], [0x2780, 0x27bf],
  [0x2800, 0x297f], [0x29a0, 0x29bf], [0x2a20, 0x2a5f], [0x2a80, 0x2abf], [0x2ae0, 0x2b5f], [0x2c00, 0x2c1f],
  [0x2c80, 0x2cdf], [0x2d00, 0x2d1f], [0x2d40, 0x2d5f], [0x2ea0, 0x2edf], [0x31c0, 0x31df], [0x3400, 0x4d9f],
  [0x4dc0, 0x9fbf], [0xa000, 0xa47f], [0xa4a0, 0xa4bf], [0xa500, 0xa5ff], [0xa640, 0xa65f], [0xa6a0, 0xa6df],
  [0xa700, 0xa75f], [0xa780, 0xa79f], [0xa840, 0xa85f],
];
/** The 7-bit repertoire, same form. */
const NARROW_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x180, 0x19f],
  [0x240, 0x29f],
];

function expand(ranges: ReadonlyArray<readonly [number, number]>): Uint16Array {
  const size = ranges.reduce((sum, [first, last]) => sum + last - first + 1, 0);
  const out = new Uint16Array(size);
  let i = 0;
  for (const [first, last] of ranges) for (let c = first; c <= last; c++) out[i++] = c;
  return out;
}

const WIDE = expand(WIDE_RANGES);
const NARROW = expand(NARROW_RANGES);
/** Code unit -> value + 1 (wide) or -(value + 1) (narrow); 0 is not a Base32768 character. */
const LOOKUP = new Int32Array(0x10000);
WIDE.forEach((code, value) => {
  LOOKUP[code] = value + 1;
});
NARROW.forEach((code, value) => {
  LOOKUP[code] = -(value + 1);
});

export class Base32768Error extends Error {
  override name = "Base32768Error";
}

export function encodeBase32768(bytes: Uint8Array): string {
  const codes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    if (bits >= 15) {
      bits -= 15;
      codes.push(WIDE[(acc >> bits) & 0x7fff]!);
      acc &= (1 << bits) - 1;
    }
  }
  if (bits > 7) codes.push(WIDE[((acc << (15 - bits)) | ((1 << (15 - bits)) - 1)) & 0x7fff]!);
  else if (bits > 0) codes.push(NARROW[((acc << (7 - bits)) | ((1 << (7 - bits)) - 1)) & 0x7f]!);
  return String.fromCharCode(...codes);
}

export function decodeBase32768(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 15) / 8));
  let length = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const entry = LOOKUP[text.charCodeAt(i)]!;
    if (entry === 0) throw new Base32768Error(`not a Base32768 character at ${i}`);
    if (entry < 0 && i !== text.length - 1) throw new Base32768Error(`a 7-bit character before the end at ${i}`);
    const width = entry > 0 ? 15 : 7;
    acc = (acc << width) | (Math.abs(entry) - 1);
    bits += width;
    while (bits >= 8) {
      bits -= 8;
      out[length++] = (acc >> bits) & 0xff;
      acc &= (1 << bits) - 1;
    }
  }
  if (acc !== (1 << bits) - 1) throw new Base32768Error("padding bits are not all 1");
  return out.subarray(0, length);
}
