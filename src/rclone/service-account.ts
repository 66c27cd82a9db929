import { createSign } from "node:crypto";
import { readFile } from "node:fs/promises";
import os from "node:os";

/** Expands a leading `~` and `$VAR` / `${VAR}` as rclone does for service_account_file. */
export function expandPath(file: string, env: NodeJS.ProcessEnv, home: string = os.homedir()): string {
  const withHome = file === "~" || file.startsWith("~/") ? home + file.slice(1) : file;
  return withHome.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => env[braced ?? bare ?? ""] ?? "");
}

function encodeSegment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/**
 * Trades a service-account key file for an access token (JWT bearer grant at
 * the key's token_uri), so the shared-drive list works without a browser.
 */
export async function fetchServiceAccountToken(keyFile: string, scope: string, fetchImpl: typeof fetch = fetch, now: Date = new Date()): Promise<string> {
  const key = JSON.parse(await readFile(keyFile, "utf8")) as { client_email?: unknown; private_key?: unknown; token_uri?: unknown };
  if (typeof key.client_email !== "string" || typeof key.private_key !== "string") {
    throw new Error(`${keyFile} is not a service-account key (client_email and private_key are missing)`);
  }
  const tokenUri = typeof key.token_uri === "string" ? key.token_uri : "https://oauth2.googleapis.com/token";
  const issued = Math.floor(now.getTime() / 1000);
  const claims = { iss: key.client_email, scope, aud: tokenUri, iat: issued, exp: issued + 3600 };
  const unsigned = `${encodeSegment({ alg: "RS256", typ: "JWT" })}.${encodeSegment(claims)}`;
  const signature = createSign("RSA-SHA256").update(unsigned).sign(key.private_key).toString("base64url");
  const response = await fetchImpl(tokenUri, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: `${unsigned}.${signature}` }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`the token endpoint refused the service account (HTTP ${response.status})`);
  const body = (await response.json()) as { access_token?: unknown };
  if (typeof body.access_token !== "string") throw new Error("the token endpoint answered without an access_token");
  return body.access_token;
}

/** Scope URL for a short rclone scope list ("drive,drive.readonly"); blank means drive. */
export function expandScopes(scope: string): string {
  const names = scope.split(",").map((s) => s.trim()).filter(Boolean);
  return (names.length ? names : ["drive"]).map((name) => `https://www.googleapis.com/auth/${name}`).join(" ");
}
