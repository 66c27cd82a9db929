import { messageOf } from "../lib/errors.js";
import { silentLogger } from "../lib/logger.js";
import { createRcClient } from "../rclone/rc-client.js";
import { RcAuthError, RcUnreachableError } from "../rclone/rc-errors.js";
import type { DoctorCheck } from "./types.js";

const NAME = "rclone";
const KEYS = "RCLONE.RC_CACHE_REFRESH";

/**
 * With RCLONE.RC_CACHE_REFRESH.ENABLED: rclone's remote control answers,
 * takes the credentials, and has the VFS the file checks refresh (the one FS
 * names, or the only one). Nothing is refreshed: `vfs/list` only reads.
 */
export const rcloneCheck: DoctorCheck = {
  name: NAME,
  async run(ctx) {
    const settings = ctx.config.RCLONE.RC_CACHE_REFRESH;
    if (!settings.ENABLED) return [{ name: NAME, ok: true, detail: `${KEYS} is off: file checks do not refresh rclone's directory cache` }];
    const rc = createRcClient({
      url: settings.RC_URL,
      user: settings.RC_USER,
      pass: settings.RC_PASS,
      timeoutMs: ctx.probeTimeoutMs ?? 10_000,
      logger: silentLogger(),
    });
    let vfses: string[];
    try {
      vfses = await rc.listVfs();
    } catch (error) {
      const hint =
        error instanceof RcAuthError
          ? `: check ${KEYS}.RC_USER and ${KEYS}.RC_PASS against rclone's --rc-user and --rc-pass`
          : error instanceof RcUnreachableError
            ? `: is rclone running with --rc, and does ${KEYS}.RC_URL name its --rc-addr?`
            : "";
      return [{ name: NAME, ok: false, detail: `${messageOf(error)}${hint}` }];
    }
    const where = `the remote control at ${new URL(settings.RC_URL).origin} answers and takes the credentials`;
    const listed = vfses.map((v) => JSON.stringify(v)).join(", ");
    if (vfses.length === 0)
      return [
        { name: NAME, ok: false, detail: `${where}, but no VFS is active (rcd without a mount?): there is no directory cache to refresh` },
      ];
    if (settings.FS !== "" && !vfses.includes(settings.FS))
      return [
        {
          name: NAME,
          ok: false,
          detail: `${where}, but ${KEYS}.FS ${JSON.stringify(settings.FS)} is not an active VFS (active: ${listed})`,
        },
      ];
    if (settings.FS === "" && vfses.length > 1)
      return [
        { name: NAME, ok: false, detail: `${where}, but several VFS are active (${listed}): set ${KEYS}.FS to the one holding the media` },
      ];
    return [{ name: NAME, ok: true, detail: `${where}; VFS ${JSON.stringify(settings.FS || vfses[0])} is refreshed before file checks` }];
  },
};
