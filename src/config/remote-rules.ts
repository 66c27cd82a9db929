import { childPath } from "./validate.js";
import type { Config } from "./types.js";

/** A remote as rclone's command line writes it: a name, a colon, an optional path. */
const REMOTE_SPEC = /^[^:/\\]+:/;

/** Checks of CLOUD.RCLONE_REMOTE and RCLONE.CRYPT_MAPPINGS that need more than one key. */
export function checkRemoteRules(config: Config): string[] {
  const problems: string[] = [];
  if (config.CLOUD.RCLONE_REMOTE !== "") {
    if (config.CLOUD.SERVICE_ACCOUNT_FILE !== "") {
      problems.push(
        "CLOUD.SERVICE_ACCOUNT_FILE: must be empty when CLOUD.RCLONE_REMOTE is set (the remote brings its credentials; give it a service_account_file instead)",
      );
    }
  }
  for (const [prefix, remotes] of Object.entries(config.RCLONE.CRYPT_MAPPINGS)) {
    const at = childPath("RCLONE.CRYPT_MAPPINGS", prefix);
    if (remotes.length !== 1) problems.push(`${at}: must name exactly one crypt remote, such as ["gcrypt:"]`);
    else if (!REMOTE_SPEC.test(remotes[0]!))
      problems.push(`${at}[0]: must be an rclone remote such as "gcrypt:", got ${JSON.stringify(remotes[0])}`);
  }
  return problems;
}
