import type { TargetKindConfig } from "../../config/target-kind.js";
import { checkServerEntry } from "../entry-rules.js";

/** An autoscan entry: a URL and, when autoscan asks for them, HTTP Basic credentials. */
export const autoscanConfig: TargetKindConfig = {
  check: (entry, at) => checkServerEntry(entry, at, { basic: true }),
};
