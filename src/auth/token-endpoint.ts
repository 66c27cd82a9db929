import { httpFetch, type HttpFetchResponse } from "../lib/http-fetch.js";
import { parseJsonObject } from "../lib/json-object.js";
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
  let response: HttpFetchResponse;
  let text: string;
  try {
    response = await httpFetch(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw explainGoogleFailure(classifyGoogleError(error), where, during);
  }
  const data = parseJsonObject(text);
  if (!response.ok) throw explainGoogleFailure(classifyGoogleError({ response: { status: response.status, data } }), where, during);
  return data ?? {};
}
