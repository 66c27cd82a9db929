import type { Config, TriggerType } from "../../config/types.js";
import type { LibraryCatalog } from "../../domain.js";
import { libraryRootsOf } from "../../ingest/library-check.js";
import type { Clock } from "../../lib/clock.js";
import type { SourceTable } from "../../ingest/sources.js";
import { createLocalPathMapper } from "../../paths/local.js";
import type { PathMapper } from "../../paths/mapper.js";
import { createBasicAuth, type BasicAuth } from "../../auth/basic-auth.js";
import { createHashCheck, type HashCheck } from "./hash-check.js";

/** What the /triggers/* routes need beyond the scan server's own deps. */
export interface CompatDeps {
  /** Every name under /triggers/ and what it accepts (built-ins included). */
  triggers: ReadonlyMap<string, TriggerType>;
  basicAuth: BasicAuth;
  hashCheck: HashCheck;
  /** The locations of the libraries holding a media-server path (fetched once when unknown); undefined when they cannot be told. */
  libraryRoots(serverPath: string): Promise<string[] | undefined>;
  /** The mapper of a /triggers/ name with SOURCES settings (its REWRITES); undefined: the server mapper. */
  mapperOf?(name: string): PathMapper | undefined;
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
  /** The targets' libraries, which the hash check keeps its reads inside. */
  catalog?: LibraryCatalog;
  /** How long the hash check waits for a library refresh (3 s by default, as the library check). */
  refreshTimeoutMs?: number;
  /** SOURCES, as the ingest pipeline has them. */
  sources?: SourceTable;
}

/** Builds the routes' deps from the config: TRIGGERS over the built-in names, the login, the hash check (where SERVER_FILE_EXIST_PATH_MAPPINGS says scanarr sees the files). */
export function createCompatDeps(config: Config, options: CompatOptions): CompatDeps {
  const triggers = new Map<string, TriggerType>(BUILT_IN);
  for (const entry of config.TRIGGERS) triggers.set(entry.NAME, entry.TYPE);
  return {
    triggers,
    basicAuth: createBasicAuth({
      login: { username: config.SERVER_USERNAME, passwordHash: config.SERVER_PASSWORD_HASH },
      clock: options.clock,
    }),
    hashCheck: createHashCheck({ toLocal: createLocalPathMapper(config.SERVER_FILE_EXIST_PATH_MAPPINGS) }),
    libraryRoots: (serverPath) => libraryRootsOf(serverPath, options.catalog, options.refreshTimeoutMs ?? 3_000),
    mapperOf: (name) => options.sources?.settingsFor(name)?.mapper,
  };
}
