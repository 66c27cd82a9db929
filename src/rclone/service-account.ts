import os from "node:os";
import { createServiceAccountAuth, readServiceAccountKey } from "../auth/service-account.js";
import { GOOGLE_TOKEN_URL } from "../config/defaults.js";

/** Expands a leading `~` and `$VAR` / `${VAR}` as rclone does for service_account_file. */
export function expandPath(file: string, env: NodeJS.ProcessEnv, home: string = os.homedir()): string {
  const withHome = file === "~" || file.startsWith("~/") ? home + file.slice(1) : file;
  return withHome.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (_, braced: string | undefined, bare: string | undefined) => env[braced ?? bare ?? ""] ?? "",
  );
}

/**
 * Trades a service-account key file for an access token (JWT bearer grant at
 * the key's token_uri, as rclone does), so the shared-drive list works
 * without a browser.
 */
export async function fetchServiceAccountToken(keyFile: string, scope: string): Promise<string> {
  const key = await readServiceAccountKey(keyFile);
  const client = await createServiceAccountAuth(keyFile, key.token_uri ?? GOOGLE_TOKEN_URL, scope.split(" ").filter(Boolean));
  const { token } = await client.getAccessToken();
  if (!token) throw new Error("the token endpoint answered without an access_token");
  return token;
}

/** Scope URL for a short rclone scope list ("drive,drive.readonly"); blank means drive. */
export function expandScopes(scope: string): string {
  const names = scope
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return (names.length ? names : ["drive"]).map((name) => `https://www.googleapis.com/auth/${name}`).join(" ");
}
