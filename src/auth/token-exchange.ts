import { UserError } from "../domain.js";
import { postToTokenEndpoint } from "./token-endpoint.js";
import type { StoredToken } from "./token-store.js";

export interface CodeExchange {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  codeVerifier: string;
  /** Must be identical to the one in the authorization request. */
  redirectUri: string;
  /** Epoch milliseconds, to turn `expires_in` into an expiry date. */
  now: number;
  timeoutMs?: number;
}

/** Exchanges an authorization code for tokens (RFC 6749 §4.1.3 with PKCE). */
export async function exchangeCode(input: CodeExchange): Promise<StoredToken> {
  const form = {
    grant_type: "authorization_code",
    code: input.code,
    code_verifier: input.codeVerifier,
    redirect_uri: input.redirectUri,
    client_id: input.clientId,
    client_secret: input.clientSecret,
  };
  return readTokenResponse(await postToTokenEndpoint(input.tokenUrl, form, "exchange", input.timeoutMs), input.now);
}

function readTokenResponse(v: Record<string, unknown>, now: number): StoredToken {
  if (typeof v.access_token !== "string" || !v.access_token) {
    throw new UserError("The token endpoint answered without an access token.");
  }
  if (typeof v.refresh_token !== "string" || !v.refresh_token) {
    // Monitoring would stop after an hour without one.
    throw new UserError(
      "Google returned no refresh token. Remove scanarr's access at https://myaccount.google.com/permissions " +
        "and run `scanarr authorize` again.",
    );
  }
  const expiresIn = typeof v.expires_in === "number" ? v.expires_in : Number(v.expires_in ?? 3600);
  return {
    access_token: v.access_token,
    refresh_token: v.refresh_token,
    expiry_date: now + (Number.isFinite(expiresIn) ? expiresIn : 3600) * 1000,
    token_type: typeof v.token_type === "string" ? v.token_type : "Bearer",
    ...(typeof v.scope === "string" ? { scope: v.scope } : {}),
  };
}
