import type { TargetKindConfig } from "../../config/target-kind.js";
import { checkServerEntry } from "../entry-rules.js";

/**
 * An Audiobookshelf entry: a URL and either an API token (TOKEN) or a user's
 * USERNAME and PASSWORD, which scanarr logs in with (autopulse's way). One of
 * the two, not both: the server answers nothing without a credential.
 */
export const audiobookshelfConfig: TargetKindConfig = {
  check: (entry, at) => {
    const login = entry.USERNAME !== "" || entry.PASSWORD !== "";
    if (!login) {
      return checkServerEntry(entry, at, { token: "required", where: "an API token from the user's settings, or USERNAME and PASSWORD" });
    }
    const problems = checkServerEntry(entry, at, { basic: true });
    return problems.map((p) => (p.startsWith(`${at}.TOKEN:`) ? `${at}.TOKEN: set TOKEN or USERNAME and PASSWORD, not both` : p));
  },
};
