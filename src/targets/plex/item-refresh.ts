import { AnchorMissingError, TargetAuthError } from "../../domain.js";
import { sendUngated, type AnchorSend } from "../../delivery/anchor-gate.js";
import type { PlexApiClient } from "./api.js";
import type { PlexItemRef } from "./library-items-db.js";

/** What one round of item refreshes did. */
export interface ItemRefreshRound {
  refreshed: string[];
  analyzed: string[];
  failed: Array<{ ratingKey: string; error: Error }>;
}

/**
 * `PUT /library/metadata/{ratingKey}/refresh` once per distinct item of
 * `refs`, then `PUT …/analyze` for the items whose own media file was named
 * (not a sidecar's video: a subtitle does not change the media) unless
 * `analyzed` already holds them, each call through `send` (the anchor gate).
 * A refused token stops the round (every other call would be refused the
 * same way) and is thrown; a missing anchor stops it too, the calls left
 * reported failed; other failures are reported per item.
 */
export async function refreshPlexItems(
  api: Pick<PlexApiClient, "refreshItem" | "analyzeItem">,
  refs: readonly PlexItemRef[],
  analyzed: ReadonlySet<string> = new Set(),
  send: AnchorSend = sendUngated,
): Promise<ItemRefreshRound> {
  const round: ItemRefreshRound = { refreshed: [], analyzed: [], failed: [] };
  const refreshKeys = [...new Set(refs.map((r) => r.ratingKey))];
  const analyzeKeys = [
    ...new Set(
      refs
        .filter((r) => r.named === undefined && !analyzed.has(r.ratingKey) && !analyzed.has(r.parentRatingKey ?? ""))
        .map((r) => r.ratingKey),
    ),
  ];
  const calls: Array<[string, string[], (key: string) => Promise<void>]> = [
    ["refreshed", refreshKeys, (key) => api.refreshItem(key)],
    ["analyzed", analyzeKeys, (key) => api.analyzeItem(key)],
  ];
  for (const [index, [done, keys, call]] of calls.entries()) {
    for (const [at, ratingKey] of keys.entries()) {
      try {
        await send(() => call(ratingKey));
        round[done as "refreshed" | "analyzed"].push(ratingKey);
      } catch (error) {
        if (error instanceof TargetAuthError) throw error;
        if (error instanceof AnchorMissingError) {
          const left = [...keys.slice(at), ...calls.slice(index + 1).flatMap(([, rest]) => rest)];
          round.failed.push(...left.map((key) => ({ ratingKey: key, error })));
          return round;
        }
        round.failed.push({ ratingKey, error: error instanceof Error ? error : new Error(String(error)) });
      }
    }
  }
  return round;
}
