import type { Config, TriggerType } from "../../config/types.js";
import type { Clock } from "../../lib/clock.js";
import { createBasicAuth, type BasicAuth } from "../../auth/basic-auth.js";
import { createHashCheck, type HashCheck } from "./hash-check.js";

/** What the /triggers/* routes need beyond the scan server's own deps. */
export interface CompatDeps {
  /** Every name under /triggers/ and what it accepts (built-ins included). */
  triggers: ReadonlyMap<string, TriggerType>;
  basicAuth: BasicAuth;
  hashCheck: HashCheck;
}

/** The names autoscan users' *arr connections already call. */
const BUILT_IN: ReadonlyArray<[string, TriggerType]> = [
  ["sonarr", "sonarr"],
  ["radarr", "radarr"],
  ["lidarr", "lidarr"],
  ["readarr", "readarr"],
];

export interface CompatOptions {
  clock: Clock;
  /**
   * Where scanarr may see a file named by a `?path=…&hash=…` request. By
   * default the media-server path, then the path as sent; the integrator
   * passes the SERVER_FILE_EXIST_PATH_MAPPINGS mapping here.
   */
  localPaths?: (requested: string, serverPath: string) => string[];
}

/** Builds the routes' deps from the config: TRIGGERS over the built-in names, the login, the hash check. */
export function createCompatDeps(config: Config, options: CompatOptions): CompatDeps {
  const triggers = new Map<string, TriggerType>(BUILT_IN);
  for (const entry of config.TRIGGERS) triggers.set(entry.NAME, entry.TYPE);
  return {
    triggers,
    basicAuth: createBasicAuth({
      login: { username: config.SERVER_USERNAME, passwordHash: config.SERVER_PASSWORD_HASH },
      clock: options.clock,
    }),
    hashCheck: createHashCheck({ localPaths: options.localPaths ?? ((requested, serverPath) => [serverPath, requested]) }),
  };
}
