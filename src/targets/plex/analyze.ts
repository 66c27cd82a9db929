import { Writable } from "node:stream";
import { AnchorMissingError, TargetAuthError, TargetUnavailableError } from "../../domain.js";
import { sendUngated, type AnchorSend } from "../../delivery/anchor-gate.js";
import type { PlexApiClient } from "./api.js";
import type { PlexItemRef } from "./library-items-db.js";
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
export function pickAnalyzeItems(items: Iterable<PlexItemRef>, directory: boolean): string[] {
  const keys = new Set<string>();
  for (const item of items) keys.add(directory ? (item.parentRatingKey ?? item.ratingKey) : item.ratingKey);
  return [...keys];
}

/** What became of each item; failures carry the error for the log and the retry decision. */
export interface AnalyzeReport {
  analyzed: string[];
  failed: Array<{ ratingKey: string; error: Error }>;
}

/**
 * `PUT /library/metadata/{ratingKey}/analyze` for each item, one call each,
 * in order. PLEX_ANALYZE_TYPE "deep" is a scanner option only; through the API
 * Plex decides how deep to go. Each call goes through `send`, the anchor
 * gate. A refused token (403, a shared user's) or a missing anchor stops the
 * round: every other call would be refused or held the same way.
 */
export async function analyzeThroughApi(
  api: Pick<PlexApiClient, "analyzeItem">,
  ratingKeys: readonly string[],
  send: AnchorSend = sendUngated,
): Promise<AnalyzeReport> {
  const report: AnalyzeReport = { analyzed: [], failed: [] };
  for (const [index, ratingKey] of ratingKeys.entries()) {
    try {
      await send(() => api.analyzeItem(ratingKey));
      report.analyzed.push(ratingKey);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      report.failed.push({ ratingKey, error: failure });
      if (failure instanceof TargetAuthError || failure instanceof AnchorMissingError) {
        for (const rest of ratingKeys.slice(index + 1)) report.failed.push({ ratingKey: rest, error: failure });
        break;
      }
    }
  }
  return report;
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
  /** The anchor gate each run goes through; a run held by it fails its items and ends the round. */
  send?: AnchorSend;
}

/** Runs the analyze commands one after the other; a failed run fails its items, the next run still goes. */
export async function analyzeThroughScanner(
  settings: ScannerSettings,
  type: AnalyzeType,
  ratingKeys: readonly string[],
  options: ScannerAnalyzeOptions,
): Promise<AnalyzeReport> {
  const report: AnalyzeReport = { analyzed: [], failed: [] };
  if (type === "off") return report;
  const send = options.send ?? sendUngated;
  const batches = batchesOf(ratingKeys);
  for (const [index, batch] of batches.entries()) {
    const command = buildAnalyzeCommand(settings, type, batch);
    const output = new Writable({ write: (_chunk, _encoding, done) => done() });
    const start = () =>
      runScanner(command, {
        env: options.env,
        timeoutMs: options.timeoutMs,
        stdout: output,
        stderr: output,
        mode: settings.mode,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    let run: Awaited<ReturnType<typeof start>>;
    try {
      run = await send(start);
    } catch (error) {
      if (!(error instanceof AnchorMissingError)) throw error;
      for (const ratingKey of batches.slice(index).flat()) report.failed.push({ ratingKey, error });
      break;
    }
    if (!run.failure) {
      report.analyzed.push(...batch);
      continue;
    }
    const error = new TargetUnavailableError(`analyzing items ${batch.join(",")} failed: ${run.failure.message}`);
    for (const ratingKey of batch) report.failed.push({ ratingKey, error });
  }
  return report;
}
