import { createClientFor, persistRefreshedTokens, type DriveAuth, type OAuthClient } from "../auth/drive-auth.js";
import { createServiceAccountAuth } from "../auth/service-account.js";
import { readToken, type StoredToken } from "../auth/token-store.js";
import { UserError } from "../domain.js";
import { parseJsonObject } from "../lib/json-object.js";
import type { Logger } from "../lib/logger.js";
import type { DriveRemote } from "./drive-remote.js";
import { expandPath } from "./service-account.js";

/** rclone's built-in Drive client id: shared by every rclone user, so Google throttles it. */
const RCLONE_SHARED_CLIENT_ID = "202264815644.apps.googleusercontent.com";

export interface RemoteAuthInput {
  remote: DriveRemote;
  /** CLOUD.TOKEN_URL; the remote's own token_url wins when it sets one. */
  tokenUrl: string;
  /** scanarr's own store for the remote's refreshed tokens; rclone.conf is never written. */
  tokenFile: string;
  /** For `$VAR` in service_account_file, as rclone expands it. */
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

/** Where the remote's credentials come from, for doctor and the start-up log. */
export type RemoteCredentials =
  | { kind: "service-account"; file: string }
  | { kind: "oauth"; clientId: string; clientSecret: string; tokenUrl: string; token: StoredToken };

/**
 * The remote's credentials: its service_account_file, or its own OAuth
 * client with its token. A remote on rclone's shared client is refused.
 */
export function remoteCredentials(input: Pick<RemoteAuthInput, "remote" | "tokenUrl" | "env">): RemoteCredentials {
  const { name, section } = input.remote;
  if (section.service_account_file) return { kind: "service-account", file: expandPath(section.service_account_file, input.env) };
  if (section.service_account_credentials) {
    throw new UserError(
      `rclone remote "${name}": service_account_credentials is not supported; save the key to a file and set service_account_file.`,
      2,
    );
  }
  const clientId = section.client_id ?? "";
  const clientSecret = section.client_secret ?? "";
  if (clientId === "" || clientId === RCLONE_SHARED_CLIENT_ID || clientSecret === "") {
    throw new UserError(
      `rclone remote "${name}" has no client id of its own: it uses rclone's shared client id, whose quota Google throttles for all rclone users together. ` +
        `Create your own OAuth client (https://rclone.org/drive/#making-your-own-client-id), set client_id and client_secret in the remote ` +
        `(\`rclone config\`, edit "${name}"), run \`rclone config reconnect ${name}:\`, then restart scanarr.`,
      2,
    );
  }
  const token = parseRcloneToken(section.token ?? "");
  if (!token) {
    throw new UserError(`rclone remote "${name}" has no usable token (no refresh_token): run \`rclone config reconnect ${name}:\`.`, 2);
  }
  return { kind: "oauth", clientId, clientSecret, tokenUrl: section.token_url || input.tokenUrl, token };
}

/**
 * Drive credentials from the remote. Tokens refreshed in memory go to
 * scanarr's own token file; on start the fresher of that file and the
 * remote's token is used, as long as both hold the same refresh token.
 */
export async function loadRemoteAuth(input: RemoteAuthInput): Promise<DriveAuth> {
  const credentials = remoteCredentials(input);
  if (credentials.kind === "service-account") return createServiceAccountAuth(credentials.file, input.tokenUrl);
  const stored = await readToken(input.tokenFile).catch(() => undefined);
  const start =
    stored && stored.refresh_token === credentials.token.refresh_token && stored.expiry_date > credentials.token.expiry_date
      ? stored
      : credentials.token;
  const client: OAuthClient = createClientFor(credentials.clientId, credentials.clientSecret, credentials.tokenUrl);
  client.setCredentials(start);
  persistRefreshedTokens(client, input.tokenFile, start, input.logger);
  return client;
}

/** rclone's token line (Go's oauth2.Token as JSON, or its old capitalised form) as a StoredToken. */
export function parseRcloneToken(text: string): StoredToken | undefined {
  const v = parseJsonObject(text);
  if (!v) return undefined;
  const pick = (...keys: string[]) => keys.map((k) => v[k]).find((x): x is string => typeof x === "string");
  const refresh = pick("refresh_token", "RefreshToken");
  if (!refresh) return undefined;
  const expiry = Date.parse(pick("expiry", "Expiry") ?? "");
  return {
    access_token: pick("access_token", "AccessToken") ?? "",
    refresh_token: refresh,
    // No expiry (or Go's zero time) is unknown here: refresh before the first call.
    expiry_date: Number.isFinite(expiry) && expiry > 0 ? expiry : 0,
    token_type: pick("token_type", "TokenType") ?? "Bearer",
  };
}
