import { classifyGoogleError, explainGoogleFailure } from "./errors.js";

/**
 * POSTs a form to the OAuth token endpoint and returns the parsed JSON answer,
 * or throws a UserError that says what failed. `during` names the grant, so a
 * refused one is explained as a stale code or a dead refresh token.
 */
export async function postToTokenEndpoint(
  tokenUrl: string,
  form: Record<string, string>,
  during: "exchange" | "refresh",
  timeoutMs = 30_000,
): Promise<Record<string, unknown>> {
  const where = `the token endpoint ${tokenUrl}`;
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw explainGoogleFailure(classifyGoogleError(error), where, during);
  }
  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw explainGoogleFailure(classifyGoogleError({ response: { status: response.status, data } }), where, during);
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
}
