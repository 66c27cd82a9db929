/** When a hook runs. */
export type HookStage = "before" | "after";

/** The facts of one scan a hook receives, all as environment variables. */
export interface HookFacts {
  /** The folder scanned, in the media server's path form. */
  folder: string;
  source: string;
  event: string;
  /** The target (e.g. "plex") and library section, once known. */
  target?: string;
  section?: { id: string; title?: string };
  /** Files the request named that should be present / gone. */
  files?: readonly string[];
  deletedFiles?: readonly string[];
  /** After the scan: "confirmed", "unconfirmed", "finished" (no confirmation), "failed". */
  result?: string;
  /** After the scan: files not as expected in the media server. */
  missingFiles?: readonly string[];
  /** After the scan: the item ids analyzed. */
  analyzedItems?: readonly string[];
  /** After the scan: what became of the trash ("emptied", or why not). */
  trash?: string;
  /** After a failed scan: why. */
  error?: string;
}

/** A list variable stops before this many bytes, at a whole line: execve refuses any one string over 128 KiB. */
export const MAX_LIST_BYTES = 30_000;
const MAX_JSON_BYTES = 120_000;

/**
 * The environment variables a hook gets. Lists are newline-separated
 * (SCANARR_FILES) with their full length in SCANARR_FILES_COUNT, cut at a
 * whole line past MAX_LIST_BYTES; SCANARR_JSON holds the same facts as one
 * JSON object, for scripts that want exact values (a file name may hold a
 * newline), with `"truncated": true` when a list was cut. Unset facts are
 * left out, not set empty.
 */
export function hookEnvironment(stage: HookStage, facts: HookFacts): Record<string, string> {
  const env: Record<string, string> = {
    SCANARR_HOOK: stage,
    SCANARR_FOLDER: facts.folder,
    SCANARR_SOURCE: facts.source,
    SCANARR_EVENT: facts.event,
  };
  if (facts.target !== undefined) env.SCANARR_TARGET = facts.target;
  if (facts.section !== undefined) {
    env.SCANARR_SECTION = facts.section.id;
    if (facts.section.title !== undefined) env.SCANARR_SECTION_TITLE = facts.section.title;
  }
  const json: Record<string, unknown> = { stage, ...facts };
  let truncated = false;
  for (const [name, list, key] of [
    ["SCANARR_FILES", facts.files, "files"],
    ["SCANARR_DELETED_FILES", facts.deletedFiles, "deletedFiles"],
    ["SCANARR_MISSING_FILES", facts.missingFiles, "missingFiles"],
  ] as const) {
    if (list === undefined) continue;
    const kept = keepWithin(list, MAX_LIST_BYTES);
    env[name] = kept.join("\n");
    env[`${name}_COUNT`] = String(list.length);
    json[key] = kept;
    truncated ||= kept.length < list.length;
  }
  if (facts.analyzedItems !== undefined) env.SCANARR_ANALYZED_ITEMS = facts.analyzedItems.join(",");
  if (facts.result !== undefined) env.SCANARR_RESULT = facts.result;
  if (facts.trash !== undefined) env.SCANARR_TRASH = facts.trash;
  if (facts.error !== undefined) env.SCANARR_ERROR = facts.error;
  env.SCANARR_JSON = jsonWithin({ ...json, ...(truncated ? { truncated } : {}) });
  // A NUL byte cannot travel in an environment string; no real path holds one.
  for (const [name, value] of Object.entries(env)) env[name] = value.replaceAll("\0", "");
  return env;
}

/** Escaping can grow a list past the limit in JSON; then the lists go and `truncated` says so. */
function jsonWithin(json: Record<string, unknown>): string {
  const text = JSON.stringify(json);
  if (Buffer.byteLength(text) <= MAX_JSON_BYTES) return text;
  return JSON.stringify({ ...json, files: [], deletedFiles: [], missingFiles: [], truncated: true });
}

function keepWithin(list: readonly string[], maxBytes: number): string[] {
  const kept: string[] = [];
  let bytes = 0;
  for (const entry of list) {
    bytes += Buffer.byteLength(entry) + 1;
    if (bytes > maxBytes) break;
    kept.push(entry);
  }
  return kept;
}
