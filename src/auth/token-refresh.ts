import { UserError } from "../domain.js";
import { postToTokenEndpoint } from "./token-endpoint.js";

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
  const form = {
    grant_type: "refresh_token",
    refresh_token: input.refreshToken,
    client_id: input.clientId,
    client_secret: input.clientSecret,
  };
  const data = await postToTokenEndpoint(input.tokenUrl, form, "refresh", input.timeoutMs);
  if (typeof data.access_token !== "string" || data.access_token === "") {
    throw new UserError(`The token endpoint ${input.tokenUrl} answered the refresh without an access token.`);
  }
  return data.access_token;
}
