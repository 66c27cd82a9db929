import { opt, str } from "../../config/spec-builders.js";
import { type EntryOf, defineTargetKind } from "../../config/target-kind.js";
import { checkServerEntry } from "../entry-rules.js";

const tdarrFields = {
  LIBRARY_ID: opt(str(undefined, "the Tdarr library (its id, dbID) new files are scanned into", { nonEmpty: true })),
} as const;

/** A TARGETS entry of TYPE "tdarr", its own fields typed. */
export type TdarrEntry = EntryOf<typeof tdarrFields>;

/** A Tdarr entry: a URL, an optional API key, and the library (its id, `dbID`) new files are scanned into. */
export const tdarrConfig = defineTargetKind({
  fields: tdarrFields,
  check: (entry, at) => {
    const problems = checkServerEntry(entry, at, { token: "optional" });
    if (entry.LIBRARY_ID === undefined) {
      problems.push(`${at}.LIBRARY_ID: must be set for TYPE "tdarr" (the id of the Tdarr library to scan new files into)`);
    }
    return problems;
  },
});
