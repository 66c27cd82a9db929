/*
 * rclone's filename_encryption = obfuscate: each character is rotated within
 * its class (digits, ASCII letters, Latin-1, each 256-point Unicode block) by
 * a distance from the sum of the name's code points plus the sum of the name
 * key's bytes. The name's own sum (mod 256) is written in front, "NNN.", and
 * "!" quotes a character that was left as it is.
 */

const QUOTE = "!";
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Sum of the name key's bytes: the secret part of every rotation. */
export function obfuscationOffset(nameKey: Uint8Array): number {
  return nameKey.reduce((sum, byte) => sum + byte, 0);
}

function isSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdfff;
}

function rotate(code: number, distance: number, forward: boolean): number {
  if (code >= 0x30 && code <= 0x39) return shift(code - 0x30, (distance % 9) + 1, 10, forward) + 0x30;
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) {
    const letter = code >= 0x61 ? code - 0x61 + 26 : code - 0x41;
    const moved = shift(letter, (distance % 25) + 1, 52, forward);
    return moved >= 26 ? moved - 26 + 0x61 : moved + 0x41;
  }
  if (code >= 0xa0 && code <= 0xff) return shift(code - 0xa0, (distance % 95) + 1, 96, forward) + 0xa0;
  if (code >= 0x100) {
    const base = code - (code % 256);
    return shift(code - base, (distance % 127) + 1, 256, forward) + base;
  }
  return code;
}

// One wrap each way, as rclone does: a negative "NNN." (only in names made by
// something else) can move a character out of its class there too.
function shift(position: number, by: number, size: number, forward: boolean): number {
  if (forward) return (position + by) % size;
  const moved = position - by;
  return moved < 0 ? moved + size : moved;
}

/** What Go writes for a rune: U+FFFD in place of a surrogate or a value outside Unicode. */
function toChar(code: number): string {
  return code < 0 || code > 0x10ffff || isSurrogate(code) ? "\uFFFD" : String.fromCodePoint(code);
}

export function obfuscateSegment(plain: string, offset: number): string {
  if (plain === "") return "";
  if (LONE_SURROGATE.test(plain)) return `!.${plain}`;
  let sum = 0;
  for (const char of plain) sum += char.codePointAt(0)!;
  const distance = (sum % 256) + offset;
  let out = `${sum % 256}.`;
  for (const char of plain) {
    if (char === QUOTE) {
      out += QUOTE + QUOTE;
      continue;
    }
    const rotated = rotate(char.codePointAt(0)!, distance, true);
    out += isSurrogate(rotated) ? QUOTE + char : String.fromCodePoint(rotated);
  }
  return out;
}

/** Reverses obfuscateSegment; undefined when `text` has no "NNN." prefix. */
export function deobfuscateSegment(text: string, offset: number): string | undefined {
  if (text === "") return "";
  const dot = text.indexOf(".");
  if (dot === -1) return undefined;
  const prefix = text.slice(0, dot);
  if (prefix === QUOTE) return text.slice(dot + 1);
  // Go's strconv.Atoi: an optional sign and decimal digits.
  if (!/^[+-]?\d{1,15}$/.test(prefix)) return undefined;
  const distance = Number(prefix) + offset;
  let out = "";
  let quoted = false;
  for (const char of text.slice(dot + 1)) {
    if (quoted) {
      out += char;
      quoted = false;
    } else if (char === QUOTE) {
      quoted = true;
    } else {
      out += toChar(rotate(char.codePointAt(0)!, distance, false));
    }
  }
  return out;
}
