import { defineTargetKind } from "../../config/target-kind.js";
import { checkServerEntry } from "../entry-rules.js";
import { confirmFields } from "../media-browser/confirm-config.js";

/** An Emby entry: a URL, an API key, and its confirmation's settings. */
export const embyConfig = defineTargetKind({
  fields: confirmFields,
  check: (entry, at) => checkServerEntry(entry, at, { token: "required", where: "an API key from the server's dashboard" }),
});
