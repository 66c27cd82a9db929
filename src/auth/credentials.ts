import { createHash, timingSafeEqual } from "node:crypto";
import { verifyPassword } from "./password-hash.js";

/** The configured login: SERVER_USERNAME and SERVER_PASSWORD_HASH. */
export interface Login {
  username: string;
  passwordHash: string;
}

/** Whether a login is configured at all (both keys set). */
export function hasLogin(login: Login): boolean {
  return login.username !== "" && login.passwordHash !== "";
}

/**
 * Checks a username and password against the login. The password hash is
 * verified even when the username is wrong, and usernames are compared as
 * digests, so the time taken tells nothing about which part was wrong.
 */
export function createCredentialCheck(
  login: Login,
  verify: (hash: string, password: string) => Promise<boolean> = verifyPassword,
): (username: string, password: string) => Promise<boolean> {
  const wantUser = digest(login.username);
  return async (username, password) => {
    const userOk = timingSafeEqual(digest(username), wantUser);
    const passwordOk = await verify(login.passwordHash, password);
    return userOk && passwordOk && hasLogin(login);
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
