const BLOCK = 16;

export function padPkcs7(data: Uint8Array): Buffer {
  const padding = BLOCK - (data.length % BLOCK);
  const out = Buffer.alloc(data.length + padding, padding);
  out.set(data, 0);
  return out;
}

/** Strips PKCS#7 padding; undefined when the padding is not well formed. */
export function unpadPkcs7(data: Uint8Array): Uint8Array | undefined {
  if (data.length === 0 || data.length % BLOCK !== 0) return undefined;
  const padding = data[data.length - 1]!;
  if (padding === 0 || padding > BLOCK) return undefined;
  for (let i = data.length - padding; i < data.length; i++) if (data[i] !== padding) return undefined;
  return data.subarray(0, data.length - padding);
}
