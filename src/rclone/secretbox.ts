import { timingSafeEqual } from "node:crypto";

/*
 * NaCl crypto_secretbox (XSalsa20-Poly1305). Node's crypto has no XSalsa20,
 * and rclone's encrypted config is exactly this box, so it is written out here
 * from the Salsa20 and Poly1305 specifications. Config files are small, so
 * clarity wins over speed (Poly1305 uses BigInt).
 */

const SIGMA = new Uint32Array([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);

function rotl(v: number, c: number): number {
  return ((v << c) | (v >>> (32 - c))) >>> 0;
}

function readWords(bytes: Uint8Array, count: number): Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

function initialState(key: Uint8Array, input: Uint8Array): Uint32Array {
  const k = readWords(key, 8);
  const n = readWords(input, 4);
  const s = new Uint32Array(16);
  s.set([SIGMA[0]!, k[0]!, k[1]!, k[2]!, k[3]!, SIGMA[1]!, n[0]!, n[1]!], 0);
  s.set([n[2]!, n[3]!, SIGMA[2]!, k[4]!, k[5]!, k[6]!, k[7]!, SIGMA[3]!], 8);
  return s;
}

function quarter(x: Uint32Array, a: number, b: number, c: number, d: number): void {
  x[b] = (x[b]! ^ rotl((x[a]! + x[d]!) >>> 0, 7)) >>> 0;
  x[c] = (x[c]! ^ rotl((x[b]! + x[a]!) >>> 0, 9)) >>> 0;
  x[d] = (x[d]! ^ rotl((x[c]! + x[b]!) >>> 0, 13)) >>> 0;
  x[a] = (x[a]! ^ rotl((x[d]! + x[c]!) >>> 0, 18)) >>> 0;
}

function rounds(x: Uint32Array): void {
  for (let i = 0; i < 10; i++) {
    quarter(x, 0, 4, 8, 12);
    quarter(x, 5, 9, 13, 1);
    quarter(x, 10, 14, 2, 6);
    quarter(x, 15, 3, 7, 11);
    quarter(x, 0, 1, 2, 3);
    quarter(x, 5, 6, 7, 4);
    quarter(x, 10, 11, 8, 9);
    quarter(x, 15, 12, 13, 14);
  }
}

/** HSalsa20: derives the XSalsa20 subkey from the key and the first 16 nonce bytes. */
function hsalsa20(key: Uint8Array, nonce16: Uint8Array): Uint8Array {
  const x = initialState(key, nonce16);
  rounds(x);
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  [0, 5, 10, 15, 6, 7, 8, 9].forEach((w, i) => view.setUint32(i * 4, x[w]!, true));
  return out;
}

function salsa20Stream(key: Uint8Array, nonce8: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const input = new Uint8Array(16);
  input.set(nonce8, 0);
  const inputView = new DataView(input.buffer);
  for (let block = 0; block * 64 < length; block++) {
    inputView.setUint32(8, block >>> 0, true);
    inputView.setUint32(12, Math.floor(block / 2 ** 32), true);
    const start = initialState(key, input);
    const x = start.slice();
    rounds(x);
    const bytes = new Uint8Array(64);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < 16; i++) view.setUint32(i * 4, (x[i]! + start[i]!) >>> 0, true);
    out.set(bytes.subarray(0, Math.min(64, length - block * 64)), block * 64);
  }
  return out;
}

function xsalsa20Stream(key: Uint8Array, nonce: Uint8Array, length: number): Uint8Array {
  return salsa20Stream(hsalsa20(key, nonce.subarray(0, 16)), nonce.subarray(16, 24), length);
}

function readLittleEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

function poly1305(oneTimeKey: Uint8Array, message: Uint8Array): Uint8Array {
  const p = (1n << 130n) - 5n;
  const r = readLittleEndian(oneTimeKey.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = readLittleEndian(oneTimeKey.subarray(16, 32));
  let acc = 0n;
  for (let i = 0; i < message.length; i += 16) {
    const chunk = message.subarray(i, i + 16);
    const n = readLittleEndian(chunk) + (1n << BigInt(8 * chunk.length));
    acc = ((acc + n) * r) % p;
  }
  let tag = (acc + s) & ((1n << 128n) - 1n);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) {
    out[i] = Number(tag & 0xffn);
    tag >>= 8n;
  }
  return out;
}

export const SECRETBOX_NONCE_BYTES = 24;
export const SECRETBOX_TAG_BYTES = 16;

/** Seals `message`; returns tag (16 bytes) followed by the ciphertext, like NaCl's secretbox. */
export function sealSecretbox(message: Uint8Array, nonce: Uint8Array, key: Uint8Array): Uint8Array {
  const stream = xsalsa20Stream(key, nonce, 32 + message.length);
  const cipher = new Uint8Array(message.length);
  for (let i = 0; i < message.length; i++) cipher[i] = message[i]! ^ stream[32 + i]!;
  const out = new Uint8Array(SECRETBOX_TAG_BYTES + cipher.length);
  out.set(poly1305(stream.subarray(0, 32), cipher), 0);
  out.set(cipher, SECRETBOX_TAG_BYTES);
  return out;
}

/** Opens a box made by sealSecretbox; returns undefined when the key or data is wrong. */
export function openSecretbox(box: Uint8Array, nonce: Uint8Array, key: Uint8Array): Uint8Array | undefined {
  if (box.length < SECRETBOX_TAG_BYTES) return undefined;
  const cipher = box.subarray(SECRETBOX_TAG_BYTES);
  const stream = xsalsa20Stream(key, nonce, 32 + cipher.length);
  const expected = poly1305(stream.subarray(0, 32), cipher);
  if (!timingSafeEqual(expected, box.subarray(0, SECRETBOX_TAG_BYTES))) return undefined;
  const message = new Uint8Array(cipher.length);
  for (let i = 0; i < cipher.length; i++) message[i] = cipher[i]! ^ stream[32 + i]!;
  return message;
}
