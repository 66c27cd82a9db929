import { createCipheriv, randomBytes } from "node:crypto";

/*
 * rclone's "obscure": AES-256-CTR under a key published in rclone's source.
 * It only stops reading a password by eye; it is what rclone expects in
 * IsPassword options such as crypt's password and password2.
 */
const OBSCURE_KEY = Buffer.from("9c935b48730a554d6bfd7c63c886a92bd390198eb8128afbf4de162b8b95f638", "hex");
const IV_BYTES = 16;

function applyCtr(iv: Uint8Array, data: Uint8Array): Buffer {
  const cipher = createCipheriv("aes-256-ctr", OBSCURE_KEY, iv);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** Obscures `plain` exactly as `rclone obscure` does (random IV, URL-safe base64, no padding). */
export function obscurePassword(plain: string, iv: Uint8Array = randomBytes(IV_BYTES)): string {
  return Buffer.concat([Buffer.from(iv), applyCtr(iv, Buffer.from(plain, "utf8"))]).toString("base64url");
}

/** Reverses obscurePassword; throws with rclone's wording when `obscured` is not obscured. */
export function revealPassword(obscured: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(obscured)) {
    throw new Error("base64 decode failed when revealing password - is it obscured?");
  }
  const data = Buffer.from(obscured, "base64url");
  if (data.length < IV_BYTES) throw new Error("input too short when revealing password - is it obscured?");
  return applyCtr(data.subarray(0, IV_BYTES), data.subarray(IV_BYTES)).toString("utf8");
}
