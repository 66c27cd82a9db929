import { createCipheriv, createDecipheriv } from "node:crypto";

/*
 * EME (ECB-Mix-ECB, Halevi and Rogaway 2003): a tweakable wide-block mode
 * over AES, as rclone uses it for names. Each direction runs two ECB passes
 * over all blocks and one single-block step for the mix; the ECB objects are
 * kept and fed whole blocks only, so no state carries from one call to the
 * next (ECB with padding off never holds a block back).
 */

const BLOCK = 16;
/** EME is defined for 1 to 128 blocks (2,048 bytes). */
export const EME_MAX_BYTES = 128 * BLOCK;

export interface WideBlockCipher {
  encrypt(data: Uint8Array): Buffer;
  decrypt(data: Uint8Array): Buffer;
}

/** Multiplies a 16-byte block by x in GF(2^128), EME's byte order (byte 0 lowest). */
function double(block: Uint8Array): Buffer {
  const out = Buffer.alloc(BLOCK);
  out[0] = ((block[0]! << 1) & 0xff) ^ (block[15]! & 0x80 ? 0x87 : 0);
  for (let i = 1; i < BLOCK; i++) out[i] = ((block[i]! << 1) & 0xff) | (block[i - 1]! >> 7);
  return out;
}

function xorInto(target: Buffer, offset: number, block: Buffer): void {
  for (let i = 0; i < BLOCK; i++) target[offset + i]! ^= block[i]!;
}

export function createEme(key: Uint8Array, tweak: Uint8Array): WideBlockCipher {
  const encryptor = createCipheriv("aes-256-ecb", key, null).setAutoPadding(false);
  const decryptor = createDecipheriv("aes-256-ecb", key, null).setAutoPadding(false);
  const tweakBlock = Buffer.from(tweak);
  // The multipliers 2^j·L, L = 2·E(0): one block per possible input block.
  const masks = Buffer.alloc(EME_MAX_BYTES);
  let mask = double(encryptor.update(Buffer.alloc(BLOCK)));
  for (let j = 0; j < EME_MAX_BYTES / BLOCK; j++) {
    mask.copy(masks, j * BLOCK);
    mask = double(mask);
  }

  function transform(data: Uint8Array, aes: (input: Buffer) => Buffer): Buffer {
    const length = data.length;
    if (length === 0 || length % BLOCK !== 0 || length > EME_MAX_BYTES) {
      throw new RangeError(`EME needs 1 to 128 whole 16-byte blocks, got ${length} bytes`);
    }
    const input = Buffer.from(data);
    for (let i = 0; i < length; i++) input[i]! ^= masks[i]!;
    const middle = aes(input);
    const mp = Buffer.from(tweakBlock);
    for (let offset = 0; offset < length; offset += BLOCK) xorInto(mp, 0, middle.subarray(offset, offset + BLOCK));
    const mc = aes(mp);
    let m: Buffer = Buffer.from(mp);
    xorInto(m, 0, mc);
    const first = Buffer.from(mc);
    xorInto(first, 0, tweakBlock);
    for (let offset = BLOCK; offset < length; offset += BLOCK) {
      m = double(m);
      xorInto(middle, offset, m);
      xorInto(first, 0, middle.subarray(offset, offset + BLOCK));
    }
    first.copy(middle, 0);
    const output = aes(middle);
    for (let i = 0; i < length; i++) output[i]! ^= masks[i]!;
    return output;
  }

  return {
    encrypt: (data) => transform(data, (input) => encryptor.update(input)),
    decrypt: (data) => transform(data, (input) => decryptor.update(input)),
  };
}
