import { systemClock } from "../lib/clock.js";
import { silentLogger } from "../lib/logger.js";
import { anchorsOf, createAnchorMonitor } from "../mount/anchors.js";
import { createMountTable } from "../mount/mount-table.js";
import { createPathProbe } from "../mount/path-probe.js";
import type { CheckResult, DoctorCheck } from "./types.js";

/**
 * Each anchor (ANCHORS and PLEX_EMPTY_TRASH_CONTROL_FILES) is there, and on
 * which mount, looked at the way serve looks before each scan: through the
 * path probe's helper process, bounded in time, so a stalled mount answers
 * "stalled" instead of hanging doctor. A missing anchor holds every scan.
 */
export const anchorsCheck: DoctorCheck = {
  name: "anchors",
  async run(ctx) {
    const anchors = anchorsOf(ctx.config);
    if (anchors.length === 0) {
      return [{ name: "anchors", ok: true, detail: "ANCHORS is empty: scans go out without checking that the media's mounts are up" }];
    }
    const mountPointOf = createMountTable(systemClock);
    const probe = createPathProbe({ timeoutMs: ctx.probeTimeoutMs ?? 5_000, mountPointOf });
    try {
      const status = await createAnchorMonitor({ anchors, probe, logger: silentLogger(), clock: systemClock }).check();
      const missing = new Map(status.missing.map((m) => [m.path, m.reason]));
      return anchors.map((anchor): CheckResult => {
        const name = `anchor ${anchor}`;
        const on = describeMount(mountPointOf(anchor));
        const reason = missing.get(anchor);
        if (reason !== undefined)
          return { name, ok: false, detail: `${reason}${on ? `; ${on}` : ""}: serve holds every scan until it is there` };
        return { name, ok: true, detail: `present${on ? `, ${on}` : ""}` };
      });
    } finally {
      await probe.close();
    }
  },
};

function describeMount(mount: string | undefined): string {
  if (mount === undefined) return "";
  if (mount === "/") return "on the root file system (/), not a mount of its own: it shows the file is there, not that a mount is up";
  return `on the mount at ${mount}`;
}
