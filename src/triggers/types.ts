import type { RequestedPath } from "../domain.js";

/**
 * What a scan trigger makes of one POSTed body: the paths to scan, or why
 * nothing will be scanned. Parsers never throw and never touch the network,
 * the config or the queue; the HTTP server decides what each kind answers.
 */

/** Who sent the request. */
export type Source = "sonarr" | "radarr" | "lidarr" | "readarr" | "manual" | "a-train";

export type { RequestedPath } from "../domain.js";

/** How a requested path is scanned; see RequestedPath. */
export type PathKind = RequestedPath["kind"];

export type TriggerResult =
  /** Something to scan; `paths` is never empty and holds no duplicates. */
  | {
      kind: "scan";
      source: Source;
      event: string;
      paths: RequestedPath[];
      /** The app says its batch is complete (Sonarr's Import Complete, one Radarr, Lidarr or Readarr import): due at once. */
      batchEnd?: true;
    }
  /** The *arr "Test" button: answer 2xx, scan nothing. */
  | { kind: "test"; source: Source | "unknown"; event: string }
  /** A well-formed event that carries nothing to scan (Grab, Health, ...). */
  | { kind: "ignored"; source: Source | "unknown"; event: string; reason: string }
  /** Not a request we understand: answer 400 with `reason`. */
  | { kind: "invalid"; reason: string };
