import { AnchorMissingError, TargetAuthError, type AfterScanCapability, type ItemCall, type ItemRef } from "../../domain.js";
import { sendUngated, type AnchorSend } from "../anchor-gate.js";

/** What became of each item; failures carry the error for the log. */
export interface AnalyzeReport {
  analyzed: string[];
  failed: Array<{ ratingKey: string; error: Error }>;
}

/** What one round of item refreshes did. */
export interface ItemRefreshRound {
  refreshed: string[];
  analyzed: string[];
  failed: Array<{ ratingKey: string; error: Error }>;
}

/**
 * Sends `calls` in order, each through `send` (the anchor gate). A refused
 * token or a missing anchor stops the round, the calls left failed with it
 * (every other call would be refused or held the same way); other failures
 * fail their own items and the next call still goes.
 */
export async function sendItemCalls<C extends ItemCall>(
  calls: readonly C[],
  send: AnchorSend = sendUngated,
): Promise<{ done: C[]; failed: AnalyzeReport["failed"] }> {
  const done: C[] = [];
  const failed: AnalyzeReport["failed"] = [];
  for (const [index, call] of calls.entries()) {
    try {
      await send(() => call.run());
      done.push(call);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      const stop = failure instanceof TargetAuthError || failure instanceof AnchorMissingError;
      for (const other of stop ? calls.slice(index) : [call])
        failed.push(...other.keys.map((ratingKey) => ({ ratingKey, error: failure })));
      if (stop) break;
    }
  }
  return { done, failed };
}

/** Analyzes the distinct items of confirmed files, the target's way (its analyzeCalls), each call through `send`. */
export async function analyzeItems(
  target: Pick<AfterScanCapability, "analyzeCalls">,
  items: readonly ItemRef[],
  send: AnchorSend = sendUngated,
): Promise<AnalyzeReport> {
  const { done, failed } = await sendItemCalls(target.analyzeCalls(items), send);
  return { analyzed: done.flatMap((call) => call.keys), failed };
}

/** Refreshes the items, and analyzes those whose own file was named unless already in `analyzed`, each call through `send`. */
export async function refreshItems(
  target: Pick<AfterScanCapability, "refreshCalls">,
  items: readonly ItemRef[],
  analyzed: ReadonlySet<string>,
  send: AnchorSend = sendUngated,
): Promise<ItemRefreshRound> {
  const { done, failed } = await sendItemCalls(target.refreshCalls(items, analyzed), send);
  const keysOf = (kind: "refreshed" | "analyzed") => done.filter((call) => call.kind === kind).flatMap((call) => call.keys);
  return { refreshed: keysOf("refreshed"), analyzed: keysOf("analyzed"), failed };
}
