import { readTextFile } from "../lib/text-file.js";
import { UserError } from "../domain.js";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { parseJsonObject } from "../lib/json-object.js";

/**
 * The stored OAuth token, in the field names google-auth-library's
 * `setCredentials` takes, so the file can be handed to it unchanged.
 */
export interface StoredToken {
  access_token: string;
  refresh_token: string;
  /** Epoch milliseconds at which the access token expires. */
  expiry_date: number;
  token_type: string;
  scope?: string;
}

/** Reads the token file; undefined when there is none yet. */
export async function readToken(file: string): Promise<StoredToken | undefined> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UserError(`Cannot read the drive token ${file}: ${(error as Error).message}`);
  }
  const token = parseToken(text);
  if (!token) throw new UserError(`The drive token ${file} is damaged; run \`scanarr authorize\` again.`, 2);
  return token;
}

/** Writes the token atomically with mode 0600, whatever mode the old file had. */
export async function writeToken(file: string, token: StoredToken): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(token, null, 2)}\n`, { mode: 0o600, forceMode: true });
}

/**
 * Merges a refreshed token into the stored one. Google does not send the
 * refresh token again on a refresh, so the stored one must survive.
 */
export function mergeToken(stored: StoredToken, update: Partial<Record<keyof StoredToken, unknown>>): StoredToken {
  return {
    access_token: typeof update.access_token === "string" ? update.access_token : stored.access_token,
    refresh_token: typeof update.refresh_token === "string" && update.refresh_token ? update.refresh_token : stored.refresh_token,
    expiry_date: typeof update.expiry_date === "number" ? update.expiry_date : stored.expiry_date,
    token_type: typeof update.token_type === "string" ? update.token_type : stored.token_type,
    ...(typeof update.scope === "string" ? { scope: update.scope } : stored.scope ? { scope: stored.scope } : {}),
  };
}

function parseToken(text: string): StoredToken | undefined {
  const v = parseJsonObject(text);
  if (!v) return undefined;
  if (typeof v.refresh_token !== "string" || !v.refresh_token) return undefined;
  return {
    access_token: typeof v.access_token === "string" ? v.access_token : "",
    refresh_token: v.refresh_token,
    expiry_date: typeof v.expiry_date === "number" ? v.expiry_date : 0,
    token_type: typeof v.token_type === "string" ? v.token_type : "Bearer",
    ...(typeof v.scope === "string" ? { scope: v.scope } : {}),
  };
}
