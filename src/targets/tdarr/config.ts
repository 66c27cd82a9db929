import type { TargetKindConfig } from "../../config/target-kind.js";
import { checkServerEntry } from "../entry-rules.js";

/** A Tdarr entry: a URL, an optional API key, and the library (its id, `dbID`) new files are scanned into. */
export const tdarrConfig: TargetKindConfig = {
  fields: { LIBRARY_ID: { kind: "string", nonEmpty: true } },
  check: (entry, at) => {
    const problems = checkServerEntry(entry, at, { token: "optional" });
    if (entry.LIBRARY_ID === undefined) {
      problems.push(`${at}.LIBRARY_ID: must be set for TYPE "tdarr" (the id of the Tdarr library to scan new files into)`);
    }
    return problems;
  },
};
