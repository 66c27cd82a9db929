import { MAX_PATH_BYTES } from "../paths/index.js";

/**
 * What one request may carry, and what one answer may hold. Each limit is
 * answered with a status and a reason (docs/running.md lists them).
 */
export const LIMITS = {
  /** Request body (413): Sonarr's biggest season-pack imports stay far below it. */
  bodyBytes: 1024 * 1024,
  /**
   * Distinct paths in one request (413). A real webhook names at most a few
   * thousand (a whole-series rename names each file twice); this bounds the
   * work one request can cause to about a second.
   */
  pathsPerRequest: 25_000,
  /** One path, before and after SERVER_PATH_MAPPINGS, in UTF-8 bytes (400). */
  pathBytes: MAX_PATH_BYTES,
  /** Scans listed per state by GET /<pass>/api/queue, unless ?limit= asks for fewer or more. */
  queueListDefault: 100,
  queueListMax: 500,
  /** Scans on the manual page. */
  manualPageRows: 25,
} as const;
