import type { Config } from "../../config/types.js";
import { TargetUnavailableError } from "../../domain.js";
import { analyzeThroughApi, analyzeThroughScanner, pickAnalyzeItems, type AnalyzeReport } from "./analyze.js";
import { PlexApiClient, type PlexSection } from "./api.js";
import { createConfirmer, type ConfirmSettings, type Confirmer } from "./confirm.js";
import { emptyTrashIfSafe, type TrashInput, type TrashResult, type TrashSettings } from "./empty-trash.js";
import { openPlexLibraryDb } from "./library-db.js";
import type { PlexItemRef } from "./library-items-db.js";
import { createPlexLookup, type PlexLookup } from "./library-lookup.js";
import { refreshPlexItems, type ItemRefreshRound } from "./item-refresh.js";
import { DEFAULT_SCANNER_TIMEOUT_MS } from "../plex-scanner/scanner-target.js";
import { resolveScannerSettings } from "../plex-scanner/scanner-command.js";
import { messageOf } from "../../lib/errors.js";
import type { AnchorSend } from "../../delivery/anchor-gate.js";

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

/** Everything the queue needs after a scan was delivered to Plex, built from the config. */
export interface PlexAfterScan {
  /** Whether delivered scans must wait for their section at all (confirmation, analyze or empty trash on). */
  waitsForSection: boolean;
  confirmSettings: ConfirmSettings;
  trashSettings: TrashSettings;
  /** One poll for every waiting scan: see Confirmer.poll. */
  confirmer: Confirmer;
  lookup: PlexLookup;
  /** Whether analyze calls Plex at all (PLEX_ANALYZE_TYPE is not off). */
  analyzes: boolean;
  /**
   * Analyzes the distinct items of confirmed files (PLEX_ANALYZE_TYPE / _DIRECTORY, the scan method's way).
   * Every call below makes Plex read the mount, so each goes through `send`, the service's anchor gate.
   */
  analyze(items: readonly PlexItemRef[], send: AnchorSend): Promise<AnalyzeReport>;
  /** Refreshes items through the API, and analyzes those whose own file was named unless already in `analyzed` (item-refresh.ts). */
  refreshItems(items: readonly PlexItemRef[], analyzed: ReadonlySet<string>, send: AnchorSend): Promise<ItemRefreshRound>;
  /** The guarded empty-trash step for one section (see emptyTrashIfSafe). */
  emptyTrash(section: { id: string; type: string }, input: Omit<TrashInput, "deletedCount">, send: AnchorSend): Promise<TrashResult>;
}

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
 * The after-scan building blocks wired from the config. With the `scanner`
 * method the scanner has finished when the scan is delivered, so sections
 * come from the Plex database and never show `refreshing`; analyze runs the
 * scanner. Empty trash always goes through the API (it needs PLEX_TOKEN).
 */
export function createPlexAfterScan(config: AfterScanConfig, deps: AfterScanDeps): PlexAfterScan {
  const api = new PlexApiClient({
    baseUrl: config.PLEX_LOCAL_URL,
    token: config.PLEX_TOKEN,
    fetch: deps.fetch,
    timeoutMs: deps.timeoutMs,
    urlKey: deps.urlKey,
    tokenKey: deps.tokenKey,
  });
  const lookup = createPlexLookup({ databasePath: config.PLEX_DATABASE_PATH, api });
  const confirmSettings: ConfirmSettings = {
    pollMs: config.PLEX_CONFIRM_POLL_INTERVAL * 1000,
    maxWaitMs: config.PLEX_CONFIRM_MAX_WAIT * 1000,
    rescanDelayMs: config.PLEX_CONFIRM_RESCAN_DELAY * 1000,
    confirmFiles: config.PLEX_CONFIRM_SCANS,
  };
  const trashSettings: TrashSettings = {
    enabled: config.PLEX_EMPTY_TRASH,
    maxFiles: config.PLEX_EMPTY_TRASH_MAX_FILES,
    zeroDeleted: config.PLEX_EMPTY_TRASH_ZERO_DELETED,
  };
  const scanner = config.PLEX_SCAN_METHOD === "scanner";
  const sections = scanner ? { listSections: async () => sectionsFromDb(config.PLEX_DATABASE_PATH) } : api;
  return {
    waitsForSection: config.PLEX_CONFIRM_SCANS || config.PLEX_ANALYZE_TYPE !== "off" || config.PLEX_EMPTY_TRASH,
    confirmSettings,
    trashSettings,
    confirmer: createConfirmer({ api: sections, lookup, settings: confirmSettings }),
    lookup,
    analyzes: config.PLEX_ANALYZE_TYPE !== "off",
    async analyze(items, send) {
      const keys = pickAnalyzeItems(items, config.PLEX_ANALYZE_DIRECTORY);
      if (config.PLEX_ANALYZE_TYPE === "off" || keys.length === 0) return { analyzed: [], failed: [] };
      if (!scanner) return analyzeThroughApi(api, keys, send);
      const settings = resolveScannerSettings(config, {}, true);
      return analyzeThroughScanner(settings, config.PLEX_ANALYZE_TYPE, keys, {
        env: deps.env,
        timeoutMs: DEFAULT_SCANNER_TIMEOUT_MS,
        send,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
    },
    refreshItems: (items, analyzed, send) => refreshPlexItems(api, items, analyzed, send),
    emptyTrash: (section, input, send) => emptyTrashIfSafe({ api, lookup }, section, input, trashSettings, send),
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
