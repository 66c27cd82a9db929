import type { EntryOf } from "../../config/target-kind.js";
import { bool, int, opt } from "../../config/spec-builders.js";
import type { AfterScanSettings } from "../../domain.js";

/**
 * A Jellyfin or Emby entry's confirmation (the after-scan worker's, as for
 * Plex): on unless `CONFIRM_SCANS` is false. Unset, each field takes the
 * default below; Plex entries take these from the PLEX_* keys instead.
 */
export const confirmFields = {
  CONFIRM_SCANS: opt(bool(undefined, "wait for the library to finish scanning and check that the server lists each named file")),
  CONFIRM_POLL_INTERVAL: opt(int(undefined, "seconds between two polls of the server while scans are confirmed", { min: 1 })),
  CONFIRM_MAX_WAIT: opt(int(undefined, "seconds a library may stay scanning before the files are checked anyway", { min: 1 })),
  CONFIRM_RESCAN_DELAY: opt(int(undefined, "seconds missing files are waited for before the folder is scanned once more", { min: 0 })),
} as const;

export type ConfirmEntry = EntryOf<typeof confirmFields>;

/** The defaults of an entry that leaves a field unset: Plex's, except a re-scan delay past Jellyfin's 60 s LibraryMonitorDelay. */
export const CONFIRM_DEFAULTS = {
  CONFIRM_SCANS: true,
  CONFIRM_POLL_INTERVAL: 10,
  CONFIRM_MAX_WAIT: 1800,
  CONFIRM_RESCAN_DELAY: 120,
} as const;

/** The after-scan settings of a Jellyfin or Emby entry: confirmation only (no analyze, no trash on these servers). */
export function confirmSettingsOf(entry: Partial<ConfirmEntry>, server: "Jellyfin" | "Emby"): AfterScanSettings {
  const on = entry.CONFIRM_SCANS ?? CONFIRM_DEFAULTS.CONFIRM_SCANS;
  return {
    confirm: {
      pollMs: (entry.CONFIRM_POLL_INTERVAL ?? CONFIRM_DEFAULTS.CONFIRM_POLL_INTERVAL) * 1000,
      maxWaitMs: (entry.CONFIRM_MAX_WAIT ?? CONFIRM_DEFAULTS.CONFIRM_MAX_WAIT) * 1000,
      rescanDelayMs: (entry.CONFIRM_RESCAN_DELAY ?? CONFIRM_DEFAULTS.CONFIRM_RESCAN_DELAY) * 1000,
      confirmFiles: on,
      server,
    },
    trash: { enabled: false, maxFiles: 0, zeroDeleted: false },
    waitsForSection: on,
    analyzes: false,
  };
}
