import { describeReadError, readTextFile } from "../lib/text-file.js";
import { auth } from "@googleapis/drive";
import { UserError } from "../domain.js";
import { GOOGLE_TOKEN_URL } from "../config/defaults.js";
import { DRIVE_SCOPE } from "./authorization-request.js";

export type ServiceAccountAuth = InstanceType<typeof auth.JWT>;

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  /** Where the key says to trade its assertion for a token. */
  token_uri: string | undefined;
}

/**
 * A JWT-bearer client for a service-account JSON key. The library hard-codes
 * Google's token URL, so requests to it are redirected to `tokenUrl` through
 * a transport adapter, and the assertion's audience follows.
 */
export async function createServiceAccountAuth(
  file: string,
  tokenUrl: string,
  scopes: string[] = [DRIVE_SCOPE],
): Promise<ServiceAccountAuth> {
  const key = await readServiceAccountKey(file);
  const target = new URL(tokenUrl);
  return new auth.JWT({
    email: key.client_email,
    key: key.private_key,
    scopes,
    additionalClaims: { aud: tokenUrl },
    transporterOptions: {
      adapter: (options, next) => {
        if (options.url.href === GOOGLE_TOKEN_URL) options.url = target;
        return next(options);
      },
    },
  });
}

/** Reads and checks the JSON key Google lets you download for a service account. */
export async function readServiceAccountKey(file: string): Promise<ServiceAccountKey> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (error) {
    throw new UserError(`CLOUD.SERVICE_ACCOUNT_FILE: cannot read ${file} (${describeReadError(error)}).`, 2);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UserError(`CLOUD.SERVICE_ACCOUNT_FILE: ${file} is not JSON.`, 2);
  }
  const v = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  if (v.type !== "service_account" || typeof v.client_email !== "string" || typeof v.private_key !== "string") {
    throw new UserError(
      `CLOUD.SERVICE_ACCOUNT_FILE: ${file} is not a service-account key (needs "type": "service_account", client_email and private_key).`,
      2,
    );
  }
  return { client_email: v.client_email, private_key: v.private_key, token_uri: typeof v.token_uri === "string" ? v.token_uri : undefined };
}
