import { drive } from "@googleapis/drive";
import type { UserError } from "../domain.js";
import { createClientFor, type DriveAuth, type OAuthClient } from "./drive-auth.js";
import { classifyGoogleError, explainGoogleFailure } from "./errors.js";
import { refreshAccessToken, type RefreshInput } from "./token-refresh.js";

/**
 * Proves the credentials work with one cheap Drive call (the start page token
 * of the change log). Throws a UserError that says what failed and where.
 */
export async function verifyDriveAccess(credentials: DriveAuth, apiUrl: string): Promise<void> {
  const client = drive({ version: "v3", auth: credentials, rootUrl: apiUrl, retry: false });
  try {
    const { data } = await client.changes.getStartPageToken({ supportsAllDrives: true });
    if (!data.startPageToken) throw new Error("Drive answered without a start page token");
  } catch (error) {
    throw explainVerifyFailure(error, apiUrl);
  }
}

/**
 * Proves a refresh token still buys an access token from its client, and that
 * Drive answers with it; returns a client holding only that access token
 * (it cannot refresh, so it never writes a token file).
 */
export async function verifyTokenRefresh(input: RefreshInput & { apiUrl: string }): Promise<OAuthClient> {
  const accessToken = await refreshAccessToken(input);
  const client = createClientFor(input.clientId, input.clientSecret, input.tokenUrl);
  // Past the client's 5-minute early-refresh window, so it uses the token as it is.
  client.setCredentials({ access_token: accessToken, expiry_date: Date.now() + 30 * 60_000 });
  await verifyDriveAccess(client, input.apiUrl);
  return client;
}

function explainVerifyFailure(error: unknown, apiUrl: string): UserError {
  const failure = classifyGoogleError(error);
  const where = failure.kind === "unreachable" ? `Google (${apiUrl} or the token endpoint)` : "Google Drive";
  // The client refreshes its access token itself, so a refused grant here is the stored refresh token's.
  return explainGoogleFailure(failure, where, "refresh");
}
