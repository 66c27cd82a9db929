import { controlCharacterIn, quotePath } from "../paths/index.js";
import { isBlank } from "../lib/blank.js";
import { readSwitchValue } from "./read.js";
import type { RequestedPath, TriggerResult } from "./types.js";

/** A SHA-256 digest as autopulse's `hash` parameter carries it. */
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

export interface QueryRequest {
  result: TriggerResult;
  /** The `hash` parameter, lower-cased, when the request named one file and its digest. */
  sha256?: string;
}

/**
 * The query forms other scan services accept: autoscan's `?dir=a&dir=b`
 * (folders) and autopulse's `?path=<file or folder>&hash=<sha256>`. Both may
 * be repeated; `hash` is only meaningful with a single `path`. An empty `dir`
 * names no folder and is skipped: autoscan forwards a Radarr Grab as `dir=`
 * and answers it 200 itself. `refresh=1`
 * says the named files were replaced in place (a remux): their items are
 * refreshed as well as their folders scanned (docs/item-refresh.md).
 */
export function parseQueryPaths(params: URLSearchParams): QueryRequest {
  const allDirs = params.getAll("dir");
  const dirs = allDirs.filter((dir) => !isBlank(dir));
  const files = params.getAll("path");
  const hashes = params.getAll("hash");
  const paths: RequestedPath[] = [];
  const seen = new Set<string>();
  const add = (path: string, kind: RequestedPath["kind"]) => {
    const key = `${kind}\0${path}`;
    if (seen.has(key)) return;
    seen.add(key);
    paths.push({ path, kind });
  };
  for (const dir of dirs) add(dir, "folder");
  for (const file of files) add(file, "unknown");
  const invalid = (reason: string): QueryRequest => ({ result: { kind: "invalid", reason } });
  const refresh = readSwitch(params.getAll("refresh"));
  if (refresh === undefined) return invalid("refresh must be 1, true, 0 or false");
  if (refresh) for (const entry of paths) if (entry.kind !== "folder") entry.refresh = true;
  if (paths.length === 0 && allDirs.length > 0)
    return {
      result: {
        kind: "ignored",
        source: "manual",
        event: "Manual",
        reason: "the dir parameter is empty: no folder to scan (autoscan forwards a Radarr Grab as dir=)",
      },
    };
  if (paths.length === 0) return invalid("no dir or path parameter: nothing to scan");
  if (files.some(isBlank)) return invalid("a path parameter is empty");
  for (const { path, kind } of paths) {
    const problem = controlCharacterIn(path);
    if (problem !== undefined) return invalid(`${kind === "folder" ? "dir" : "path"} parameter ${quotePath(path)} ${problem}`);
  }
  const result: TriggerResult = { kind: "scan", source: "manual", event: "Manual", paths };
  if (hashes.length === 0) return { result };
  if (hashes.length > 1 || files.length !== 1 || dirs.length > 0) return invalid("hash needs exactly one path parameter (and no dir)");
  const hash = hashes[0] ?? "";
  if (!SHA256_HEX.test(hash)) return invalid("hash must be a SHA-256 digest: 64 hexadecimal characters");
  return { result, sha256: hash.toLowerCase() };
}

/** An on/off query parameter: absent is off; given more than once, every value must agree. */
function readSwitch(values: readonly string[]): boolean | undefined {
  const read = values.map(readSwitchValue);
  if (read.some((v) => v === undefined) || new Set(read).size > 1) return undefined;
  return read[0] ?? false;
}
