import { anchorsCheck } from "./anchors-check.js";
import { configCheck } from "./config-check.js";
import { driveCheck } from "./drive-check.js";
import { drivePathsCheck } from "./drive-paths-check.js";
import { listenCheck } from "./listen-check.js";
import { mappingsCheck } from "./mappings-check.js";
import { plexDatabaseCheck } from "./plex-database-check.js";
import { rcloneCheck } from "./rclone-check.js";
import { targetsCheck } from "./targets-check.js";
import type { DoctorCheck } from "./types.js";

/** What `scanarr doctor` runs, in report order. */
export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  configCheck,
  targetsCheck,
  mappingsCheck,
  drivePathsCheck,
  anchorsCheck,
  rcloneCheck,
  plexDatabaseCheck,
  driveCheck,
  listenCheck,
];

/**
 * The short form run when `serve` starts: no port check (serve holds it) and
 * no drive check (the monitor reports its own start).
 */
export const STARTUP_CHECKS: readonly DoctorCheck[] = [configCheck, targetsCheck, mappingsCheck, plexDatabaseCheck];
