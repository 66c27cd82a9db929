import type { Config } from "../../config/types.js";
import { TargetUnavailableError, type AfterScanCapability } from "../../domain.js";
import { analyzeCallsThroughApi, analyzeCallsThroughScanner, pickAnalyzeItems } from "./analyze.js";
import { PlexApiClient, type PlexSection } from "./api.js";
import { openPlexLibraryDb } from "./library-db.js";
import { createPlexLookup } from "./library-lookup.js";
import { plexRefreshCalls } from "./item-refresh.js";
import { itemsOfRef } from "./sidecar-items.js";
import { DEFAULT_SCANNER_TIMEOUT_MS } from "../plex-scanner/scanner-target.js";
import { resolveScannerSettings } from "../plex-scanner/scanner-command.js";
import { messageOf } from "../../lib/errors.js";

/** The keys the after-scan work reads: the flat PLEX_* keys, or a TARGETS entry's (afterScanConfigOfEntry). */
export type AfterScanConfig = Pick<
  Config,
  | "PLEX_LOCAL_URL"
  | "PLEX_TOKEN"
  | "PLEX_DATABASE_PATH"
  | "PLEX_SCAN_METHOD"
  | "PLEX_CONFIRM_SCANS"
  | "PLEX_CONFIRM_POLL_INTERVAL"
  | "PLEX_CONFIRM_MAX_WAIT"
  | "PLEX_CONFIRM_RESCAN_DELAY"
  | "PLEX_ANALYZE_TYPE"
  | "PLEX_ANALYZE_DIRECTORY"
  | "PLEX_EMPTY_TRASH"
  | "PLEX_EMPTY_TRASH_MAX_FILES"
  | "PLEX_EMPTY_TRASH_ZERO_DELETED"
  | "PLEX_SCANNER"
  | "PLEX_LD_LIBRARY_PATH"
  | "PLEX_SUPPORT_DIR"
  | "PLEX_USER"
  | "USE_DOCKER"
  | "DOCKER_NAME"
  | "USE_SUDO"
>;

export interface AfterScanDeps {
  /** The environment the scanner starts from (scanner method). */
  env: NodeJS.ProcessEnv;
  /** Aborts running scanner analyzes at shutdown. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The keys Plex's refusals name (a TARGETS entry's `TARGETS[n].URL` / `.TOKEN`); PLEX_LOCAL_URL / PLEX_TOKEN by default. */
  urlKey?: string;
  tokenKey?: string;
}

/**
 * The after-scan capability of a Plex target, from its settings. With the
 * `scanner` method the scanner has finished when the scan is delivered, so
 * sections come from the Plex database and never show `refreshing`; analyze
 * runs the scanner. Empty trash always goes through the API (it needs the
 * token). Files are found in the database when PLEX_DATABASE_PATH can be
 * read, else through the API's folder view (library-lookup.ts).
 */
export function createPlexAfterScan(config: AfterScanConfig, deps: AfterScanDeps): AfterScanCapability {
  const api = new PlexApiClient({
    baseUrl: config.PLEX_LOCAL_URL,
    token: config.PLEX_TOKEN,
    fetch: deps.fetch,
    timeoutMs: deps.timeoutMs,
    urlKey: deps.urlKey,
    tokenKey: deps.tokenKey,
  });
  const lookup = createPlexLookup({ databasePath: config.PLEX_DATABASE_PATH, api });
  const scanner = config.PLEX_SCAN_METHOD === "scanner";
  const analyzes = config.PLEX_ANALYZE_TYPE !== "off";
  return {
    settings: {
      confirm: {
        pollMs: config.PLEX_CONFIRM_POLL_INTERVAL * 1000,
        maxWaitMs: config.PLEX_CONFIRM_MAX_WAIT * 1000,
        rescanDelayMs: config.PLEX_CONFIRM_RESCAN_DELAY * 1000,
        confirmFiles: config.PLEX_CONFIRM_SCANS,
      },
      trash: {
        enabled: config.PLEX_EMPTY_TRASH,
        maxFiles: config.PLEX_EMPTY_TRASH_MAX_FILES,
        zeroDeleted: config.PLEX_EMPTY_TRASH_ZERO_DELETED,
      },
      waitsForSection: config.PLEX_CONFIRM_SCANS || analyzes || config.PLEX_EMPTY_TRASH,
      analyzes,
    },
    listLibraryStates: async () => (scanner ? sectionsFromDb(config.PLEX_DATABASE_PATH) : api.listSections()),
    async findFiles(requests) {
      const located = await lookup.locate(requests.map(({ library, files }) => ({ section: library, files })));
      const found = located.found.map((byFile) => new Map([...byFile].map(([file, ref]) => [file, itemsOfRef(ref)])));
      return { found, source: located.source, ...(located.databaseProblem ? { sourceProblem: located.databaseProblem } : {}) };
    },
    analyzeCalls(items) {
      const keys = pickAnalyzeItems(items, config.PLEX_ANALYZE_DIRECTORY);
      if (!analyzes || keys.length === 0) return [];
      if (!scanner) return analyzeCallsThroughApi(api, keys);
      const settings = resolveScannerSettings(config, {}, true);
      const options = { env: deps.env, timeoutMs: DEFAULT_SCANNER_TIMEOUT_MS, ...(deps.signal ? { signal: deps.signal } : {}) };
      return analyzeCallsThroughScanner(settings, config.PLEX_ANALYZE_TYPE, keys, options);
    },
    refreshCalls: (items, analyzed) => plexRefreshCalls(api, items, analyzed),
    countTrash: async (library) => (await lookup.countTrash(library)).count,
    emptyTrash: (library) => api.emptyTrash(library.id),
  };
}

/** The scanner method's sections: from the read-only database, never `refreshing` (the scanner run has ended). */
function sectionsFromDb(file: string): PlexSection[] {
  try {
    const db = openPlexLibraryDb(file);
    try {
      return db.listLibraries().map((library) => ({ ...library, refreshing: false }));
    } finally {
      db.close();
    }
  } catch (error) {
    // Plex may be repairing or replacing its database: the next poll tries again.
    throw new TargetUnavailableError(messageOf(error));
  }
}
