import type { IngestOutcome } from "../domain.js";
import type { Logger } from "../lib/logger.js";
import { listSome } from "./list-some.js";

/** What a source that logs nothing else says of a test event or an ignored request: a watcher's own noise stays at debug. */
export type NothingToScanLevel = "info" | "debug";

/**
 * Logs what became of a request, in the same words for every source: a path
 * in no library or one that cannot be mapped is a warning, a queued one the
 * info line "scan request accepted", a test event or an ignored request
 * `nothingLevel` (debug by default: a watched folder or a drive file; the
 * HTTP routes, answering each caller, log it at info). Long lists are cut to
 * their count and first few.
 */
export function logOutcome(
  logger: Logger,
  outcome: IngestOutcome,
  fields: Record<string, unknown> = {},
  nothingLevel: NothingToScanLevel = "debug",
): void {
  const { source, event } = outcome;
  switch (outcome.result) {
    case "queued": {
      const { queued, covered, ignored, unmatched } = outcome;
      return logger.info(
        { source, event, ...fields, queued: logged(queued), covered: logged(covered), ignored: some(ignored), unmatched: some(unmatched) },
        "scan request accepted",
      );
    }
    case "test":
    case "ignored":
      return logger[nothingLevel]({ source, event, ...fields, result: outcome.result }, outcome.message);
    case "unmatched":
      return logger.warn({ source, event, ...fields, result: outcome.result, paths: logged(outcome.paths) }, outcome.message);
    case "refused":
      return logger.warn({ source, event, ...fields, result: outcome.result }, outcome.message);
  }
}

/** A list in a log line: the entries themselves when they are few, else their count and the first few. */
function logged(entries: readonly string[]): readonly string[] | string {
  return entries.length <= 10 ? entries : `${entries.length}: ${listSome(entries)}`;
}

/** Like `logged`, and left out when empty. */
function some(entries: readonly string[]): readonly string[] | string | undefined {
  return entries.length > 0 ? logged(entries) : undefined;
}
