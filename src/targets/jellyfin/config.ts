import type { TargetKindConfig } from "../../config/target-kind.js";
import { checkServerEntry } from "../entry-rules.js";

/** A Jellyfin entry: a URL and an API key. */
export const jellyfinConfig: TargetKindConfig = {
  check: (entry, at) => checkServerEntry(entry, at, { token: "required", where: "an API key from the server's dashboard" }),
};
