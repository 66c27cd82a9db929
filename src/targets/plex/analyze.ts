import { Writable } from "node:stream";
import { TargetUnavailableError, type ItemCall, type ItemRef } from "../../domain.js";
import type { PlexApiClient } from "./api.js";
import { buildScannerCommand, type ScannerCommand, type ScannerSettings } from "../plex-scanner/scanner-command.js";
import { runScanner } from "../plex-scanner/scanner.js";

/** PLEX_ANALYZE_TYPE: nothing, Plex's media analysis, or the deep one (bitrates over the whole file). */
export type AnalyzeType = "off" | "basic" | "deep";

/**
 * The distinct items to analyze for confirmed files: each file's item, or its
 * parent (the season of an episode, the album of a track) with
 * PLEX_ANALYZE_DIRECTORY; an item without a parent (a movie) stands for
 * itself. Ten episodes of one season give ten items, or one season.
 */
export function pickAnalyzeItems(items: Iterable<ItemRef>, directory: boolean): string[] {
  const keys = new Set<string>();
  for (const item of items) keys.add(directory ? (item.parentRatingKey ?? item.ratingKey) : item.ratingKey);
  return [...keys];
}

/**
 * `PUT /library/metadata/{ratingKey}/analyze`, one call per item, in order.
 * PLEX_ANALYZE_TYPE "deep" is a scanner option only; through the API Plex
 * decides how deep to go.
 */
export function analyzeCallsThroughApi(api: Pick<PlexApiClient, "analyzeItem">, ratingKeys: readonly string[]): ItemCall[] {
  return ratingKeys.map((ratingKey) => ({ keys: [ratingKey], run: () => api.analyzeItem(ratingKey) }));
}

/** Items per scanner run: plex_autoscan passed them all comma-separated; a bound keeps argv short. */
export const SCANNER_ANALYZE_BATCH = 50;

/**
 * The scanner runs for `--analyze` (basic) or `--analyze-deeply` (deep)
 * `--item <id,id,…>`, reached the configured way (docker, sudo, direct):
 * one run per SCANNER_ANALYZE_BATCH items. Empty for "off" or no items.
 */
export function buildAnalyzeCommands(settings: ScannerSettings, type: AnalyzeType, ratingKeys: readonly string[]): ScannerCommand[] {
  if (type === "off") return [];
  return batchesOf(ratingKeys).map((batch) => buildAnalyzeCommand(settings, type, batch));
}

function buildAnalyzeCommand(settings: ScannerSettings, type: Exclude<AnalyzeType, "off">, batch: readonly string[]): ScannerCommand {
  return buildScannerCommand(settings, [type === "deep" ? "--analyze-deeply" : "--analyze", "--item", batch.join(",")]);
}

function batchesOf(ratingKeys: readonly string[]): string[][] {
  const batches: string[][] = [];
  for (let start = 0; start < ratingKeys.length; start += SCANNER_ANALYZE_BATCH) {
    batches.push(ratingKeys.slice(start, start + SCANNER_ANALYZE_BATCH));
  }
  return batches;
}

export interface ScannerAnalyzeOptions {
  /** The environment the scanner starts from (PATH included). */
  env: NodeJS.ProcessEnv;
  /** Per run; 0 for no limit. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The scanner runs, one per batch; a failed run fails with TargetUnavailableError (its items), the next still goes. */
export function analyzeCallsThroughScanner(
  settings: ScannerSettings,
  type: AnalyzeType,
  ratingKeys: readonly string[],
  options: ScannerAnalyzeOptions,
): ItemCall[] {
  if (type === "off") return [];
  return batchesOf(ratingKeys).map((batch) => ({
    keys: batch,
    async run() {
      const output = new Writable({ write: (_chunk, _encoding, done) => done() });
      const run = await runScanner(buildAnalyzeCommand(settings, type, batch), {
        env: options.env,
        timeoutMs: options.timeoutMs,
        stdout: output,
        stderr: output,
        mode: settings.mode,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (run.failure) throw new TargetUnavailableError(`analyzing items ${batch.join(",")} failed: ${run.failure.message}`);
    },
  }));
}
