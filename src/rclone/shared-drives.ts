import { isAuthStatus } from "../lib/http-status.js";
import { auth } from "@googleapis/drive";
import { listAllSharedDrives } from "../drive/change-logs.js";
import { createDriveApi } from "../drive/client.js";
import { DriveApiError } from "../drive/errors.js";
import type { SharedDrive } from "../drive/types.js";
import { messageOf } from "../lib/errors.js";

export type { SharedDrive };

export class SharedDrivesError extends Error {
  override name = "SharedDrivesError";
}

/**
 * Lists the account's shared drives for the wizard through the same Drive
 * client the drive monitor uses (drives.list, 100 per page as rclone asks),
 * with a bare access token: rclone's own token or a service account's.
 */
export async function listSharedDrives(apiUrl: string, accessToken: string): Promise<SharedDrive[]> {
  const client = new auth.OAuth2();
  client.setCredentials({ access_token: accessToken });
  try {
    return await listAllSharedDrives(createDriveApi({ auth: client, apiUrl }));
  } catch (error) {
    if (error instanceof DriveApiError && error.status !== undefined && isAuthStatus(error.status)) {
      throw new SharedDrivesError(`the Drive API refused the token (HTTP ${error.status})`);
    }
    const message = messageOf(error);
    throw new SharedDrivesError(`could not list the shared drives: ${message}`);
  }
}
