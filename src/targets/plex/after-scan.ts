import type { PlexEntry } from "../../config/plex-entry.js";
import { TargetUnavailableError, type AfterScanCapability } from "../../domain.js";
import { analyzeCallsThroughApi, analyzeCallsThroughScanner, pickAnalyzeItems } from "./analyze.js";
import { PlexApiClient, type PlexSection } from "./api.js";
import { openPlexLibraryDb } from "./library-db.js";
import { createPlexLookup } from "./library-lookup.js";
import { plexRefreshCalls } from "./item-refresh.js";
import { itemsOfRef } from "./sidecar-items.js";
import { DEFAULT_SCANNER_TIMEOUT_MS } from "../plex-scanner/scanner-target.js";
import type { ScannerSettings } from "../plex-scanner/scanner-command.js";
import { messageOf } from "../../lib/errors.js";

export interface AfterScanDeps {
  /** The environment the scanner starts from (scanner method). */
  env: NodeJS.ProcessEnv;
  /** Aborts running scanner analyzes at shutdown. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The keys Plex's refusals name (`TARGETS[n].URL` / `.TOKEN`, or the flat keys the entry came from). */
  urlKey?: string;
  tokenKey?: string;
  /** How Plex Media Scanner runs on this machine: analyze runs it with the scanner method. */
  scanner?: ScannerSettings;
}

/** What the after-scan work reads of a Plex entry. */
export type AfterScanEntry = Pick<
  PlexEntry,
  | "URL"
  | "TOKEN"
  | "DATABASE_PATH"
  | "SCAN_METHOD"
  | "CONFIRM_SCANS"
  | "CONFIRM_POLL_INTERVAL"
  | "CONFIRM_MAX_WAIT"
  | "CONFIRM_RESCAN_DELAY"
  | "ANALYZE_TYPE"
  | "ANALYZE_DIRECTORY"
  | "EMPTY_TRASH"
  | "EMPTY_TRASH_MAX_FILES"
  | "EMPTY_TRASH_ZERO_DELETED"
>;

/**
 * The after-scan capability of a Plex target, from its entry. With the
 * `scanner` method the scanner has finished when the scan is delivered, so
 * sections come from the Plex database and never show `refreshing`; analyze
 * runs the scanner. Empty trash always goes through the API (it needs the
 * token). Files are found in the database when its DATABASE_PATH can be
 * read, else through the API's folder view (library-lookup.ts).
 */
export function createPlexAfterScan(entry: AfterScanEntry, deps: AfterScanDeps): AfterScanCapability {
  const api = new PlexApiClient({
    baseUrl: entry.URL,
    token: entry.TOKEN,
    fetch: deps.fetch,
    timeoutMs: deps.timeoutMs,
    urlKey: deps.urlKey,
    tokenKey: deps.tokenKey,
  });
  const lookup = createPlexLookup({ databasePath: entry.DATABASE_PATH, api });
  const scanner = entry.SCAN_METHOD === "scanner";
  const analyzes = entry.ANALYZE_TYPE !== "off";
  return {
    settings: {
      confirm: {
        pollMs: entry.CONFIRM_POLL_INTERVAL * 1000,
        maxWaitMs: entry.CONFIRM_MAX_WAIT * 1000,
        rescanDelayMs: entry.CONFIRM_RESCAN_DELAY * 1000,
        confirmFiles: entry.CONFIRM_SCANS,
        server: "Plex",
      },
      trash: {
        enabled: entry.EMPTY_TRASH,
        maxFiles: entry.EMPTY_TRASH_MAX_FILES,
        zeroDeleted: entry.EMPTY_TRASH_ZERO_DELETED,
      },
      waitsForSection: entry.CONFIRM_SCANS || analyzes || entry.EMPTY_TRASH,
      analyzes,
    },
    listLibraryStates: async () => (scanner ? sectionsFromDb(entry.DATABASE_PATH) : api.listSections()),
    async findFiles(requests) {
      const located = await lookup.locate(requests.map(({ library, files }) => ({ section: library, files })));
      const found = located.found.map((byFile) => new Map([...byFile].map(([file, ref]) => [file, itemsOfRef(ref)])));
      return { found, source: located.source, ...(located.databaseProblem ? { sourceProblem: located.databaseProblem } : {}) };
    },
    analyzeCalls(items) {
      const keys = pickAnalyzeItems(items, entry.ANALYZE_DIRECTORY);
      if (!analyzes || keys.length === 0) return [];
      if (!scanner) return analyzeCallsThroughApi(api, keys);
      const settings = deps.scanner;
      if (!settings) throw new Error("the scanner method's analyze needs the scanner's settings");
      const options = { env: deps.env, timeoutMs: DEFAULT_SCANNER_TIMEOUT_MS, ...(deps.signal ? { signal: deps.signal } : {}) };
      return analyzeCallsThroughScanner(settings, entry.ANALYZE_TYPE, keys, options);
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
