import { defineTargetKind } from "../../config/target-kind.js";
import { bool, int, oneOf, opt, str } from "../../config/spec-builders.js";
import { checkServerEntry } from "../entry-rules.js";

/** A Plex entry's own fields: the server's after-scan work; unset, each follows the PLEX_* key of the same name (DATABASE_PATH: none, the API is asked). */
const plexFields = {
  CONFIRM_SCANS: opt(bool(undefined, "wait for the section to finish and check the named files (PLEX_CONFIRM_SCANS when unset)")),
  ANALYZE_TYPE: opt(oneOf(["off", "basic", "deep"], undefined, "analyze the scanned items (PLEX_ANALYZE_TYPE when unset)")),
  ANALYZE_DIRECTORY: opt(bool(undefined, "analyze the parent item instead (PLEX_ANALYZE_DIRECTORY when unset)")),
  EMPTY_TRASH: opt(bool(undefined, "empty the section's trash after a scan (PLEX_EMPTY_TRASH when unset)")),
  EMPTY_TRASH_MAX_FILES: opt(int(undefined, "the most deleted items a trash may hold to be emptied", { min: 0 })),
  EMPTY_TRASH_ZERO_DELETED: opt(bool(undefined, "empty the trash even when the scan deleted nothing")),
  DATABASE_PATH: opt(str(undefined, "Plex's library database as scanarr can read it; unset or empty: the API is asked")),
} as const;

export const plexConfig = defineTargetKind({
  fields: plexFields,
  onlyNote: "after-scan work is Plex's",
  check: (entry, at) => checkServerEntry(entry, at, { token: "optional" }),
});
