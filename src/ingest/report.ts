import type { IngestOutcome } from "../domain.js";
import type { Logger } from "../lib/logger.js";

/**
 * Logs what became of a request from a source nobody answers (a watched
 * folder, a drive file), in the words an HTTP caller gets: a path in no
 * library or one that cannot be mapped is a warning, an ignored one a debug
 * line, a queued one an info line.
 */
export function logOutcome(logger: Logger, outcome: IngestOutcome, fields: Record<string, unknown> = {}): void {
  const { source, event } = outcome;
  switch (outcome.result) {
    case "queued": {
      const { queued, covered } = outcome;
      const ignored = outcome.ignored.length > 0 ? outcome.ignored : undefined;
      const unmatched = outcome.unmatched.length > 0 ? outcome.unmatched : undefined;
      return logger.info({ source, event, ...fields, queued, covered, ignored, unmatched }, "scan request accepted");
    }
    case "test":
    case "ignored":
      return logger.debug({ source, event, ...fields, result: outcome.result }, outcome.message);
    case "unmatched":
      return logger.warn({ source, event, ...fields, result: outcome.result, paths: outcome.paths }, outcome.message);
    case "refused":
      return logger.warn({ source, event, ...fields, result: outcome.result }, outcome.message);
  }
}
