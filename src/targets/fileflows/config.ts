import type { TargetKindConfig } from "../../config/target-kind.js";
import { checkServerEntry } from "../entry-rules.js";

/** A FileFlows entry: a URL only (scanarr sends FileFlows no credential, as autopulse sends none). */
export const fileflowsConfig: TargetKindConfig = {
  check: (entry, at) => checkServerEntry(entry, at, { none: true }),
};
