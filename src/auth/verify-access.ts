import { drive } from "@googleapis/drive";
import type { UserError } from "../domain.js";
import type { DriveAuth } from "./drive-auth.js";
import { classifyGoogleError, explainGoogleFailure } from "./errors.js";

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

function explainVerifyFailure(error: unknown, apiUrl: string): UserError {
  const failure = classifyGoogleError(error);
  const where = failure.kind === "unreachable" ? `Google (${apiUrl} or the token endpoint)` : "Google Drive";
  // The client refreshes its access token itself, so a refused grant here is the stored refresh token's.
  return explainGoogleFailure(failure, where, "refresh");
}
