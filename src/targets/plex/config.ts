import type { TargetKindConfig } from "../../config/target-kind.js";
import { checkServerEntry } from "../entry-rules.js";

const bool = { kind: "boolean" } as const;

/** A Plex entry: the server's after-scan work; unset, each follows the PLEX_* key of the same name (DATABASE_PATH: none, the API is asked). */
export const plexConfig: TargetKindConfig = {
  fields: {
    CONFIRM_SCANS: bool,
    ANALYZE_TYPE: { kind: "enum", values: ["off", "basic", "deep"] },
    ANALYZE_DIRECTORY: bool,
    EMPTY_TRASH: bool,
    EMPTY_TRASH_MAX_FILES: { kind: "integer", min: 0 },
    EMPTY_TRASH_ZERO_DELETED: bool,
    DATABASE_PATH: { kind: "string" },
  },
  onlyNote: "after-scan work is Plex's",
  check: (entry, at) => checkServerEntry(entry, at, { token: "optional" }),
};
