import { timingSafeEqual } from "node:crypto";
import { UserError } from "../domain.js";

/**
 * Reads the answer of the consent screen, from the loopback request's query
 * or from what the user pasted, and returns the authorization code.
 * Throws UserError on a denied consent, a foreign `state` or a bad paste.
 */
export function readAuthorizationResponse(params: URLSearchParams, expectedState: string): string {
  const error = params.get("error");
  const state = params.get("state");
  if (state === null || !matchesState(state, expectedState)) {
    throw new UserError(
      "The authorization answer belongs to another attempt (its state does not match); " +
        "open the address printed by this run of `scanarr authorize`.",
    );
  }
  if (error === "access_denied") {
    throw new UserError("Access was denied on the consent screen; nothing was stored. Run `scanarr authorize` again and click Allow.");
  }
  if (error !== null) throw new UserError(`The consent screen answered with an error: ${error}.`);
  const code = params.get("code");
  if (!code) throw new UserError("The authorization answer carries no code.");
  return code;
}

/**
 * Parses a pasted line: the whole address the browser ended on, its query
 * string, or the bare code. A bare code cannot carry `state`; PKCE still binds
 * it to this run, since only this process knows the verifier.
 */
export function parsePastedAuthorization(line: string, expectedState: string): string {
  const text = line.trim();
  if (/^https?:\/\//i.test(text)) return readAuthorizationResponse(parseUrlQuery(text), expectedState);
  if (/(^|[?&])(code|error|state)=/.test(text)) {
    return readAuthorizationResponse(new URLSearchParams(text.replace(/^[^?]*\?/, "")), expectedState);
  }
  if (!/^[\w\-./~%]+$/.test(text)) {
    throw new UserError("That does not look like an authorization code or the address the browser ended on.");
  }
  // Copying only the code from an address bar can leave it percent-encoded (4%2F0A...).
  return text.includes("%") ? safeDecode(text) : text;
}

function parseUrlQuery(text: string): URLSearchParams {
  try {
    return new URL(text).searchParams;
  } catch {
    throw new UserError("The pasted address is not a valid URL.");
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new UserError("The pasted code is not valid percent-encoding.");
  }
}

function matchesState(actual: string, expected: string): boolean {
  const a = Buffer.from(actual);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
