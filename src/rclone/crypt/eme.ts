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
  encrypt(data: Uint8Array): Uint8Array;
  decrypt(data: Uint8Array): Uint8Array;
  /** Decrypts many inputs with three AES calls in all (each call into node:crypto costs more than the AES itself). */
  decryptMany(items: readonly Uint8Array[]): Uint8Array[];
}

/** Multiplies the 16-byte block at `offset` by x in GF(2^128), in place; EME's byte order (byte 0 lowest). */
function double(block: Uint8Array, offset = 0): void {
  const carry = block[offset + 15]! & 0x80 ? 0x87 : 0;
  for (let i = offset + 15; i > offset; i--) block[i] = ((block[i]! << 1) & 0xff) | (block[i - 1]! >> 7);
  block[offset] = ((block[offset]! << 1) & 0xff) ^ carry;
}

export function createEme(key: Uint8Array, tweak: Uint8Array): WideBlockCipher {
  const encryptor = createCipheriv("aes-256-ecb", key, null).setAutoPadding(false);
  const decryptor = createDecipheriv("aes-256-ecb", key, null).setAutoPadding(false);
  // The multipliers 2^j·L, L = 2·E(0): one block per possible input block.
  const masks = new Uint8Array(EME_MAX_BYTES);
  masks.set(encryptor.update(new Uint8Array(BLOCK)), 0);
  double(masks, 0);
  for (let offset = BLOCK; offset < EME_MAX_BYTES; offset += BLOCK) {
    masks.copyWithin(offset, offset - BLOCK, offset);
    double(masks, offset);
  }
  /**
   * EME over several independent inputs at once: each ECB step runs over the
   * blocks of every input in one call. `offsets` are the starts of the inputs
   * in `data`, plus its length at the end.
   */
  function transform(data: Uint8Array, offsets: readonly number[], aes: (input: Uint8Array) => Uint8Array): Uint8Array {
    const count = offsets.length - 1;
    const input = new Uint8Array(data.length);
    for (let k = 0; k < count; k++) {
      const start = offsets[k]!;
      const length = offsets[k + 1]! - start;
      if (length === 0 || length % BLOCK !== 0 || length > EME_MAX_BYTES) {
        throw new RangeError(`EME needs 1 to 128 whole 16-byte blocks, got ${length} bytes`);
      }
      for (let i = 0; i < length; i++) input[start + i] = data[start + i]! ^ masks[i]!;
    }
    const middle = aes(input);
    const mps = new Uint8Array(count * BLOCK);
    for (let k = 0; k < count; k++) {
      const mp = k * BLOCK;
      mps.set(tweak, mp);
      for (let i = offsets[k]!; i < offsets[k + 1]!; i++) mps[mp + ((i - offsets[k]!) & 15)]! ^= middle[i]!;
    }
    const mcs = aes(mps);
    const m = new Uint8Array(BLOCK);
    for (let k = 0; k < count; k++) {
      const start = offsets[k]!;
      const mp = k * BLOCK;
      for (let i = 0; i < BLOCK; i++) {
        m[i] = mps[mp + i]! ^ mcs[mp + i]!;
        mps[mp + i] = mcs[mp + i]! ^ tweak[i]!; // now the first block of the second pass
      }
      for (let offset = start + BLOCK; offset < offsets[k + 1]!; offset += BLOCK) {
        double(m);
        for (let i = 0; i < BLOCK; i++) {
          middle[offset + i]! ^= m[i]!;
          mps[mp + i]! ^= middle[offset + i]!;
        }
      }
      middle.set(mps.subarray(mp, mp + BLOCK), start);
    }
    const output = aes(middle);
    for (let k = 0; k < count; k++) {
      const start = offsets[k]!;
      for (let i = 0; i < offsets[k + 1]! - start; i++) output[start + i]! ^= masks[i]!;
    }
    return output;
  }

  const encrypt = (input: Uint8Array) => encryptor.update(input);
  const decrypt = (input: Uint8Array) => decryptor.update(input);
  return {
    encrypt: (data) => transform(data, [0, data.length], encrypt),
    decrypt: (data) => transform(data, [0, data.length], decrypt),
    decryptMany(items) {
      if (items.length === 0) return [];
      const offsets = [0];
      for (const item of items) offsets.push(offsets[offsets.length - 1]! + item.length);
      const data = new Uint8Array(offsets[offsets.length - 1]!);
      items.forEach((item, k) => data.set(item, offsets[k]!));
      const output = transform(data, offsets, decrypt);
      return items.map((_, k) => output.subarray(offsets[k]!, offsets[k + 1]!));
    },
  };
}
