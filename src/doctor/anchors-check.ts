import { systemClock } from "../lib/clock.js";
import { silentLogger } from "../lib/logger.js";
import { anchorsOf, createAnchorMonitor } from "../mount/anchors.js";
import { describeAnchorProposal, proposeAnchor } from "../mount/anchor-proposal.js";
import { createMountTable, readMounts } from "../mount/mount-table.js";
import { createPathProbe } from "../mount/path-probe.js";
import { libraryLocations } from "../paths/trace.js";
import type { CheckResult, DoctorCheck, DoctorContext } from "./types.js";

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
    if (anchors.length === 0) return [await withoutAnchors(ctx)];
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

/** No anchor: passes unless the libraries lie on a FUSE mount, where one is proposed. */
async function withoutAnchors(ctx: DoctorContext): Promise<CheckResult> {
  const proposal = proposeAnchor(libraryLocations(await ctx.libraries()), ctx.config.SERVER_FILE_EXIST_PATH_MAPPINGS, readMounts());
  if (proposal) return { name: "anchors", ok: false, detail: `ANCHORS is empty, but ${describeAnchorProposal(proposal)}` };
  return { name: "anchors", ok: true, detail: "ANCHORS is empty: scans go out without checking that the media's mounts are up" };
}

function describeMount(mount: string | undefined): string {
  if (mount === undefined) return "";
  if (mount === "/") return "on the root file system (/), not a mount of its own: it shows the file is there, not that a mount is up";
  return `on the mount at ${mount}`;
}
