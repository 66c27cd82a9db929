import type { StatusHints } from "../../http/errors.js";

/**
 * Plex's wording for the one status table (http/errors.ts): the
 * credential is a token, and a 403 almost always means a shared user's
 * token where the admin's is needed (apis.md §1.4).
 */
export function plexStatusHints(tokenKey: string): StatusHints {
  return {
    credentialNoun: "token",
    forbidden: `this needs an admin token; ${tokenKey} must belong to the server's admin account, not a shared user`,
  };
}
