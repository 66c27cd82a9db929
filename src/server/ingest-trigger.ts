import type { IngestOutcome } from "../domain.js";
import type { Ingest, IngestOptions } from "../ingest/pipeline.js";
import type { TriggerResult } from "../triggers/index.js";
import { HttpError, unwritableAnswer } from "./http-error.js";
import { LIMITS } from "./limits.js";

/** The outcomes every HTTP route answers with a 2xx. */
export type AnsweredOutcome = Extract<IngestOutcome, { result: "queued" | "test" | "ignored" }>;
/** What a route gets back: a 2xx outcome, or no library holding the request, which each route answers its own way. */
export type TriggerOutcome = AnsweredOutcome | Extract<IngestOutcome, { result: "unmatched" }>;

export interface TriggerIngestDeps {
  ingest: Ingest;
  allowManual: boolean;
}

/**
 * A parsed webhook or manual request through the one way in. What only HTTP
 * has (a body that is no request, the *arr Test button, disabled manual scans,
 * the per-request path limit) is decided here; a path that cannot be mapped
 * answers 400 with the outcome's words, one the database cannot take (disk
 * full) 507. A request no library holds is returned: scanarr's own routes
 * refuse it (refuseUnmatched), autoscan's answer it 200 (answer.ts).
 */
export async function ingestTrigger(result: TriggerResult, deps: TriggerIngestDeps, options: IngestOptions = {}): Promise<TriggerOutcome> {
  if (result.kind === "invalid") throw new HttpError(400, result.reason);
  if (result.kind === "test")
    return { result: "test", source: result.source, event: result.event, message: "test request received; nothing to scan" };
  if (result.kind === "ignored")
    return { result: "ignored", source: result.source, event: result.event, message: `ignored: ${result.reason}` };
  if (result.source === "manual" && !deps.allowManual) {
    throw new HttpError(403, "manual scans are disabled; set SERVER_ALLOW_MANUAL_SCAN to true in the config to allow them");
  }
  if (result.paths.length > LIMITS.pathsPerRequest) {
    throw new HttpError(413, `the request names ${result.paths.length} paths; the limit is ${LIMITS.pathsPerRequest} per request`);
  }
  let outcome: IngestOutcome;
  try {
    outcome = await deps.ingest(result.paths, result.source, result.event, result.batchEnd ? { ...options, batchEnd: true } : options);
  } catch (error) {
    throw unwritableAnswer(error) ?? error;
  }
  if (outcome.result === "refused") throw new HttpError(400, outcome.message);
  return outcome;
}

/** 422 for a request no library holds, naming its paths and the libraries. */
export function refuseUnmatched(outcome: TriggerOutcome): AnsweredOutcome {
  if (outcome.result === "unmatched") throw new HttpError(422, outcome.message, { paths: outcome.paths, libraries: outcome.libraries });
  return outcome;
}
