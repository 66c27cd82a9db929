/*
 * The OAuth pieces of rclone's headless flow: the `rclone authorize` blob the
 * remote machine prints, and what the browser machine prints back.
 */

export const PASTE_START = "Paste the following into your remote machine --->";
export const PASTE_END = "<---End paste";

export class TokenPasteError extends Error {
  override name = "TokenPasteError";
}

/** A Go json.Marshal string: like JSON.stringify, plus Go's HTML-safe escapes. */
function encodeGoString(value: string): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Go's json.Marshal of a map[string]string: keys sorted, compact. */
export function encodeGoStringMap(map: Record<string, string>): string {
  const keys = Object.keys(map).sort();
  return `{${keys.map((key) => `${encodeGoString(key)}:${encodeGoString(map[key]!)}`).join(",")}}`;
}

/**
 * The arguments after `rclone authorize`: "drive" and, when some option differs
 * from its default, base64 (no padding) of those options as compact JSON.
 */
export function buildAuthorizeArgs(nonDefault: Record<string, string>): string[] {
  const options = Object.fromEntries(
    Object.entries(nonDefault).filter(([key, value]) => key !== "token" && key !== "type" && value !== ""),
  );
  if (Object.keys(options).length === 0) return ["drive"];
  return ["drive", Buffer.from(encodeGoStringMap(options), "utf8").toString("base64").replace(/=+$/, "")];
}

export function formatAuthorizeCommand(args: string[]): string {
  return `rclone authorize ${args.map((arg) => `"${arg}"`).join(" ")}`;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function readString(object: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) if (typeof object[key] === "string") return object[key];
  return undefined;
}

/** Normalises a token JSON to the one line rclone stores: access_token, token_type, refresh_token, expiry. */
export function normalizeToken(json: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new TokenPasteError(`token is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new TokenPasteError("token must be a JSON object");
  const object = parsed as Record<string, unknown>;
  const accessToken = readString(object, "access_token", "AccessToken");
  if (!accessToken) throw new TokenPasteError("token has no access_token");
  const token: Record<string, unknown> = { access_token: accessToken };
  const tokenType = readString(object, "token_type", "TokenType");
  if (tokenType) token.token_type = tokenType;
  const refreshToken = readString(object, "refresh_token", "RefreshToken");
  if (refreshToken) token.refresh_token = refreshToken;
  const expiry = object.expiry ?? object.Expiry;
  if (expiry !== undefined) {
    if (typeof expiry !== "string" || !RFC3339.test(expiry) || Number.isNaN(Date.parse(expiry))) {
      throw new TokenPasteError(`token expiry must be an RFC 3339 time, got ${JSON.stringify(expiry)}`);
    }
    token.expiry = expiry;
  }
  if (typeof object.expires_in === "number") token.expires_in = object.expires_in;
  return JSON.stringify(token);
}

export interface AuthorizeResult {
  /** The token, normalised to the line rclone stores. */
  token: string;
  /** Other options the browser side set (e.g. root_folder_id for appfolder). */
  extra: Record<string, string>;
}

/** The text between rclone authorize's marker lines, or the whole text when they are absent. */
function extractPasteBody(text: string): string {
  const start = text.indexOf(PASTE_START);
  if (start === -1) return text;
  const after = text.slice(start + PASTE_START.length);
  const end = after.indexOf(PASTE_END);
  return end === -1 ? after : after.slice(0, end);
}

function decodeBlob(body: string): Record<string, unknown> | undefined {
  const compact = body.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(compact, "base64").toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads what `rclone authorize` printed: the base64 blob, the raw token JSON,
 * or either one with the marker lines around it.
 */
export function parseAuthorizeOutput(text: string): AuthorizeResult {
  const body = extractPasteBody(text).trim();
  const blob = decodeBlob(body);
  try {
    if (blob) {
      if (typeof blob.token !== "string") throw new TokenPasteError("the pasted blob holds no token");
      const extra: Record<string, string> = {};
      for (const [key, value] of Object.entries(blob)) if (key !== "token" && typeof value === "string") extra[key] = value;
      return { token: normalizeToken(blob.token), extra };
    }
    if (!body.startsWith("{")) throw new TokenPasteError("expected the token JSON or the base64 text rclone authorize printed");
    return { token: normalizeToken(body), extra: {} };
  } catch (error) {
    throw new TokenPasteError(
      `Couldn't decode response - try again (make sure you are using a matching version of rclone on both sides: ${(error as Error).message})`,
    );
  }
}

/** The token with its secrets elided, for the confirmation screen. */
export function shortenToken(token: string): string {
  try {
    const parsed = JSON.parse(token) as Record<string, unknown>;
    const shown = Object.entries(parsed).map(([key, value]) =>
      key === "access_token" || key === "refresh_token" ? `"${key}":"${String(value).slice(0, 6)}…"` : `"${key}":${JSON.stringify(value)}`,
    );
    return `{${shown.join(",")}}`;
  } catch {
    return "{…}";
  }
}

/** The access token inside a stored token line. */
export function readAccessToken(token: string): string {
  const parsed = JSON.parse(token) as { access_token?: unknown };
  if (typeof parsed.access_token !== "string") throw new TokenPasteError("token has no access_token");
  return parsed.access_token;
}
