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
 * A pasted line that is neither the address the browser ended on nor a code:
 * a typo or a stray copy. The user is asked again; nothing goes to Google.
 */
export class NotAnAuthorizationAnswer extends UserError {
  override name = "NotAnAuthorizationAnswer";
}

// Google's authorization codes start with a digit and a slash ("4/0A..."), percent-encoded or not.
const BARE_CODE = /^[0-9](?:\/|%2F)[\w\-.~%]{2,}$/i;

/**
 * Parses a pasted line: the whole address the browser ended on, its query
 * string, or the bare code. A bare code cannot carry `state`; PKCE still binds
 * it to this run, since only this process knows the verifier. Throws
 * NotAnAuthorizationAnswer for anything else, UserError for a refusal.
 */
export function parsePastedAuthorization(line: string, expectedState: string): string {
  const text = line.trim();
  if (/^https?:\/\//i.test(text)) return readPastedQuery(parseUrlQuery(text), expectedState);
  if (/(^|[?&])(code|error|state)=/.test(text)) return readPastedQuery(new URLSearchParams(text.replace(/^[^?]*\?/, "")), expectedState);
  if (!BARE_CODE.test(text)) {
    throw new NotAnAuthorizationAnswer(
      "That is neither the address the browser ended on nor an authorization code (a code starts like 4/0A...).",
    );
  }
  // Copying only the code from an address bar can leave it percent-encoded (4%2F0A...).
  return text.includes("%") ? safeDecode(text) : text;
}

function readPastedQuery(params: URLSearchParams, expectedState: string): string {
  if (!params.has("code") && !params.has("error")) {
    throw new NotAnAuthorizationAnswer("That address carries no code: copy the one the browser shows after you clicked Allow.");
  }
  return readAuthorizationResponse(params, expectedState);
}

function parseUrlQuery(text: string): URLSearchParams {
  try {
    return new URL(text).searchParams;
  } catch {
    throw new NotAnAuthorizationAnswer("The pasted address is not a valid URL.");
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new NotAnAuthorizationAnswer("The pasted code is not valid percent-encoding.");
  }
}

function matchesState(actual: string, expected: string): boolean {
  const a = Buffer.from(actual);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
