import type { TargetKindConfig } from "../../config/target-kind.js";
import { checkServerEntry } from "../entry-rules.js";

/** A Sonarr or Radarr entry: a URL and the app's API key. */
export const arrConfig: TargetKindConfig = {
  check: (entry, at) => checkServerEntry(entry, at, { token: "required", where: "the API key from Settings > General" }),
};
