import { assertClientConfigured, createOAuthClient } from "../auth/drive-auth.js";
import { createServiceAccountAuth } from "../auth/service-account.js";
import { refreshAccessToken } from "../auth/token-refresh.js";
import { readToken } from "../auth/token-store.js";
import { verifyDriveAccess } from "../auth/verify-access.js";
import type { CheckResult, DoctorCheck } from "./types.js";
import { messageOf } from "../lib/errors.js";

const NAME = "drive";

/**
 * With CLOUD.ENABLED: the credentials exist, the refresh token still buys an
 * access token, and Drive answers with it. Nothing is written: the token file
 * belongs to the service.
 */
export const driveCheck: DoctorCheck = {
  name: NAME,
  async run(ctx) {
    const cloud = ctx.config.CLOUD;
    if (!cloud.ENABLED) return [{ name: NAME, ok: true, detail: "drive monitoring is off (CLOUD.ENABLED is false)" }];
    try {
      return [await check(ctx.config, ctx.paths.tokenFile)];
    } catch (error) {
      return [{ name: NAME, ok: false, detail: messageOf(error) }];
    }
  },
};

async function check(config: Parameters<typeof createOAuthClient>[0], tokenFile: string): Promise<CheckResult> {
  const cloud = config.CLOUD;
  if (cloud.SERVICE_ACCOUNT_FILE) {
    const account = await createServiceAccountAuth(cloud.SERVICE_ACCOUNT_FILE, cloud.TOKEN_URL);
    await verifyDriveAccess(account, cloud.API_URL);
    return { name: NAME, ok: true, detail: `service account ${account.email ?? ""} can read Google Drive` };
  }
  assertClientConfigured(config);
  const stored = await readToken(tokenFile);
  if (!stored) return { name: NAME, ok: false, detail: `no drive token at ${tokenFile}: run \`scanarr authorize\`` };
  const accessToken = await refreshAccessToken({
    tokenUrl: cloud.TOKEN_URL,
    clientId: cloud.CLIENT_ID,
    clientSecret: cloud.CLIENT_SECRET,
    refreshToken: stored.refresh_token,
  });
  // A client holding only the fresh access token: it cannot refresh, so it never writes the token file.
  const client = createOAuthClient(config);
  // Past the client's 5-minute early-refresh window, so it uses the token as it is.
  client.setCredentials({ access_token: accessToken, expiry_date: Date.now() + 30 * 60_000 });
  await verifyDriveAccess(client, cloud.API_URL);
  return { name: NAME, ok: true, detail: `the token in ${tokenFile} refreshes and Google Drive answers with it` };
}
