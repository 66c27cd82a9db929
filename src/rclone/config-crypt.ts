import { createHash, randomBytes } from "node:crypto";
import { xsalsa20poly1305 } from "@noble/ciphers/salsa.js";

// The payload is NaCl's crypto_secretbox (XSalsa20-Poly1305): nonce, then the 16-byte tag, then the ciphertext.
const NONCE_BYTES = 24;
const TAG_BYTES = 16;

/** rclone's marker line for an encrypted configuration file. */
export const ENCRYPT_MARKER = "RCLONE_ENCRYPT_V0:";

export class ConfigCryptError extends Error {
  override name = "ConfigCryptError";
}

/** rclone derives the box key from the password alone: no salt, no iterations. */
function deriveKey(password: string): Uint8Array {
  if (password.trim() === "") throw new ConfigCryptError("the configuration password must not be empty");
  return createHash("sha256")
    .update(`[${password.normalize("NFKC")}][rclone-config]`, "utf8")
    .digest();
}

/** Whether `text` is an encrypted rclone configuration (as rclone decides it). */
export function isEncryptedConfig(text: string): boolean {
  return findPayloadStart(text) !== undefined;
}

/** Index of the first line after the marker, or undefined for plain INI. */
function findPayloadStart(text: string): number | undefined {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line === ENCRYPT_MARKER) return i + 1;
    if (line.startsWith("RCLONE_ENCRYPT_V")) {
      throw new ConfigCryptError("unsupported configuration encryption - update rclone for support");
    }
    return undefined;
  }
  return undefined;
}

/** Decrypts an RCLONE_ENCRYPT_V0 file; throws ConfigCryptError on a wrong password. */
export function decryptConfig(text: string, password: string): string {
  const start = findPayloadStart(text);
  if (start === undefined) return text;
  const payload = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .slice(start)
    .join("")
    .replace(/\s+/g, "");
  const box = Buffer.from(payload, "base64");
  if (box.length < NONCE_BYTES + TAG_BYTES) {
    throw new ConfigCryptError("configuration data too short");
  }
  const key = deriveKey(password);
  let plain: Uint8Array;
  try {
    plain = xsalsa20poly1305(key, box.subarray(0, NONCE_BYTES)).decrypt(box.subarray(NONCE_BYTES));
  } catch {
    throw new ConfigCryptError("couldn't decrypt configuration, most likely wrong password");
  }
  return Buffer.from(plain).toString("utf8");
}

/** Encrypts INI text the way rclone's "Set configuration password" saves it. */
export function encryptConfig(plainText: string, password: string, nonce: Uint8Array = randomBytes(NONCE_BYTES)): string {
  const box = xsalsa20poly1305(deriveKey(password), nonce).encrypt(Buffer.from(plainText, "utf8"));
  const payload = Buffer.concat([Buffer.from(nonce), Buffer.from(box)]).toString("base64");
  return `# Encrypted rclone configuration File\n\n${ENCRYPT_MARKER}\n${payload}`;
}
