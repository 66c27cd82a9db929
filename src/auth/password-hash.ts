import { hash, verify } from "@node-rs/argon2";

/**
 * argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: the OWASP
 * baseline), encoded as a PHC string that records its own parameters, so a
 * later change of defaults still verifies old hashes.
 */
export async function hashPassword(password: string): Promise<string> {
  if (password === "") throw new Error("the password must not be empty");
  return hash(password);
}

/** True when `password` matches `encoded`; a malformed hash is a mismatch, never a throw. */
export async function verifyPassword(encoded: string, password: string): Promise<boolean> {
  try {
    return await verify(encoded, password);
  } catch {
    return false;
  }
}
