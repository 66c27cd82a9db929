import { readToken } from "../auth/token-store.js";
import type { Config } from "../config/types.js";
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
    // Loaded only now: with drive monitoring off, neither doctor nor serve's start loads the Google client.
    const { usesRcloneConfig } = await import("../rclone/monitor-remote.js");
    if (usesRcloneConfig(ctx.config)) return (await import("./drive-remote-check.js")).checkDriveRemote(ctx.config, ctx.env ?? {});
    try {
      return [await check(ctx.config, ctx.paths.tokenFile)];
    } catch (error) {
      return [{ name: NAME, ok: false, detail: messageOf(error) }];
    }
  },
};

async function check(config: Config, tokenFile: string): Promise<CheckResult> {
  const cloud = config.CLOUD;
  const [{ assertClientConfigured }, { createServiceAccountAuth }, { verifyDriveAccess, verifyTokenRefresh }] = await Promise.all([
    import("../auth/drive-auth.js"),
    import("../auth/service-account.js"),
    import("../auth/verify-access.js"),
  ]);
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
