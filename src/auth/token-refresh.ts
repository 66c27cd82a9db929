import { classifyGoogleError, explainGoogleFailure } from "./errors.js";

export interface RefreshInput {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  timeoutMs?: number;
}

/**
 * Trades the stored refresh token for a new access token (RFC 6749 §6) and
 * returns it without storing anything: `doctor` proves the token still works
 * but must not rewrite a file the service owns. Throws a UserError that says
 * what failed; a refused grant carries the 7-day "Testing" advice.
 */
export async function refreshAccessToken(input: RefreshInput): Promise<string> {
  const where = `the token endpoint ${input.tokenUrl}`;
  const body = new URLSearchParams({
    grant_type: "refresh_token",
    refresh_token: input.refreshToken,
    client_id: input.clientId,
    client_secret: input.clientSecret,
  });
  let response: Response;
  try {
    response = await fetch(input.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body,
      signal: AbortSignal.timeout(input.timeoutMs ?? 30_000),
    });
  } catch (error) {
    throw explainGoogleFailure(classifyGoogleError(error), where, "refresh");
  }
  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw explainGoogleFailure(classifyGoogleError({ response: { status: response.status, data } }), where, "refresh");
  const token = typeof data === "object" && data !== null ? (data as Record<string, unknown>).access_token : undefined;
  if (typeof token !== "string" || token === "")
    throw explainGoogleFailure({ kind: "denied", status: response.status, detail: "no access token in the answer" }, where, "refresh");
  return token;
}
