import { auth } from "@googleapis/drive";
import type { Config } from "../config/types.js";
import { UserError } from "../domain.js";
import type { Logger } from "../lib/logger.js";
import { createServiceAccountAuth, type ServiceAccountAuth } from "./service-account.js";
import { mergeToken, readToken, writeToken, type StoredToken } from "./token-store.js";
import { messageOf } from "../lib/errors.js";

export type OAuthClient = InstanceType<typeof auth.OAuth2>;

/** What `drive({ version: "v3", auth })` accepts: a user's OAuth client or a service account. */
export type DriveAuth = OAuthClient | ServiceAccountAuth;

export interface LoadDriveAuthInput {
  config: Config;
  tokenFile: string;
  logger: Logger;
}

/**
 * Credentials for the Drive monitor: the service account when
 * CLOUD.SERVICE_ACCOUNT_FILE is set, otherwise the OAuth client with the token
 * `scanarr authorize` stored. Refreshed tokens are written back (0600).
 */
export async function loadDriveAuth({ config, tokenFile, logger }: LoadDriveAuthInput): Promise<DriveAuth> {
  const cloud = config.CLOUD;
  assertCloudEnabled(config);
  if (cloud.SERVICE_ACCOUNT_FILE) return createServiceAccountAuth(cloud.SERVICE_ACCOUNT_FILE, cloud.TOKEN_URL);
  assertClientConfigured(config);
  const stored = await readToken(tokenFile);
  if (!stored) {
    throw new UserError(`No drive token at ${tokenFile} yet: run \`scanarr authorize\`, then restart the service.`, 2);
  }
  const client = createOAuthClient(config);
  client.setCredentials(stored);
  persistRefreshedTokens(client, tokenFile, stored, logger);
  return client;
}

/** The OAuth client with its endpoints pointed at CLOUD.AUTH_URL and CLOUD.TOKEN_URL. */
export function createOAuthClient(config: Config): OAuthClient {
  return createClientFor(config.CLOUD.CLIENT_ID, config.CLOUD.CLIENT_SECRET, config.CLOUD.TOKEN_URL, config.CLOUD.AUTH_URL);
}

/** An OAuth client for any client id (CLOUD's, or an rclone remote's own). */
export function createClientFor(clientId: string, clientSecret: string, tokenUrl: string, authUrl?: string): OAuthClient {
  return new auth.OAuth2({
    clientId,
    clientSecret,
    endpoints: { oauth2TokenUrl: tokenUrl, ...(authUrl ? { oauth2AuthBaseUrl: authUrl } : {}) },
  });
}

export function assertCloudEnabled(config: Config): void {
  if (!config.CLOUD.ENABLED) {
    throw new UserError("Drive monitoring is off: set CLOUD.ENABLED to true in the config first.", 2);
  }
}

export function assertClientConfigured(config: Config): void {
  const missing = [
    config.CLOUD.CLIENT_ID ? undefined : "CLOUD.CLIENT_ID",
    config.CLOUD.CLIENT_SECRET ? undefined : "CLOUD.CLIENT_SECRET",
  ].filter((key): key is string => key !== undefined);
  if (missing.length > 0) {
    throw new UserError(
      `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} empty: create a "Desktop app" OAuth client ` +
        "in the Google Cloud console (see docs/drive-monitoring.md) or set CLOUD.SERVICE_ACCOUNT_FILE.",
      2,
    );
  }
}

/** Writes every refreshed token back, one write at a time, keeping the refresh token. */
export function persistRefreshedTokens(client: OAuthClient, file: string, initial: StoredToken, logger: Logger): void {
  let current = initial;
  let writing = Promise.resolve();
  client.on("tokens", (update) => {
    current = mergeToken(current, update);
    const snapshot = current;
    writing = writing
      .then(() => writeToken(file, snapshot))
      .then(
        () => logger.debug({ expiresAt: new Date(snapshot.expiry_date).toISOString() }, "drive access token refreshed"),
        (error: unknown) => logger.error({ file, err: messageOf(error) }, "cannot store the refreshed drive token"),
      );
  });
}
