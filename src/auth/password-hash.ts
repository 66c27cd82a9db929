/**
 * argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: the OWASP
 * baseline), encoded as a PHC string that records its own parameters, so a
 * later change of defaults still verifies old hashes. The native module is
 * loaded on the first hash or check, so a service without a login never pays for it.
 */
export async function hashPassword(password: string): Promise<string> {
  if (password === "") throw new Error("the password must not be empty");
  const { hash } = await import("@node-rs/argon2");
  return hash(password);
}

/** True when `password` matches `encoded`; a malformed hash is a mismatch, never a throw. */
export async function verifyPassword(encoded: string, password: string): Promise<boolean> {
  const { verify } = await import("@node-rs/argon2");
  try {
    return await verify(encoded, password);
  } catch {
    return false;
  }
}
