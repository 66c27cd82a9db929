import { assertClientConfigured } from "../auth/drive-auth.js";
import { createServiceAccountAuth } from "../auth/service-account.js";
import { readToken } from "../auth/token-store.js";
import { verifyDriveAccess, verifyTokenRefresh } from "../auth/verify-access.js";
import type { Config } from "../config/types.js";
import { usesRcloneConfig } from "../rclone/monitor-remote.js";
import { checkDriveRemote } from "./drive-remote-check.js";
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
    if (usesRcloneConfig(ctx.config)) return checkDriveRemote(ctx.config, ctx.env ?? {});
    try {
      return [await check(ctx.config, ctx.paths.tokenFile)];
    } catch (error) {
      return [{ name: NAME, ok: false, detail: messageOf(error) }];
    }
  },
};

async function check(config: Config, tokenFile: string): Promise<CheckResult> {
  const cloud = config.CLOUD;
  if (cloud.SERVICE_ACCOUNT_FILE) {
    const account = await createServiceAccountAuth(cloud.SERVICE_ACCOUNT_FILE, cloud.TOKEN_URL);
    await verifyDriveAccess(account, cloud.API_URL);
    return { name: NAME, ok: true, detail: `service account ${account.email ?? ""} can read Google Drive` };
  }
  assertClientConfigured(config);
  const stored = await readToken(tokenFile);
  if (!stored) return { name: NAME, ok: false, detail: `no drive token at ${tokenFile}: run \`scanarr authorize\`` };
  await verifyTokenRefresh({
    tokenUrl: cloud.TOKEN_URL,
    clientId: cloud.CLIENT_ID,
    clientSecret: cloud.CLIENT_SECRET,
    refreshToken: stored.refresh_token,
    apiUrl: cloud.API_URL,
  });
  return { name: NAME, ok: true, detail: `the token in ${tokenFile} refreshes and Google Drive answers with it` };
}
