import { TargetAuthError, type ItemCall, type ItemRef } from "../../domain.js";
import type { PlexApiClient } from "./api.js";

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
 * `analyzed` already holds them (or their parent).
 */
export function plexRefreshCalls(
  api: Pick<PlexApiClient, "refreshItem" | "analyzeItem">,
  refs: readonly ItemRef[],
  analyzed: ReadonlySet<string> = new Set(),
): Array<ItemCall & { kind: "refreshed" | "analyzed" }> {
  const refreshKeys = [...new Set(refs.map((r) => r.ratingKey))];
  const analyzeKeys = [
    ...new Set(
      refs
        .filter((r) => r.named === undefined && !analyzed.has(r.ratingKey) && !analyzed.has(r.parentRatingKey ?? ""))
        .map((r) => r.ratingKey),
    ),
  ];
  return [
    ...refreshKeys.map((key) => ({ kind: "refreshed" as const, keys: [key], run: () => api.refreshItem(key) })),
    ...analyzeKeys.map((key) => ({ kind: "analyzed" as const, keys: [key], run: () => api.analyzeItem(key) })),
  ];
}

/**
 * The refresh calls of `refs`, sent at once (a delivery's item refresh: the
 * delivery passed the anchor gate for the whole of it). A refused token
 * stops the round and is thrown (every other call would be refused the same
 * way); other failures are reported per item.
 */
export async function refreshPlexItems(
  api: Pick<PlexApiClient, "refreshItem" | "analyzeItem">,
  refs: readonly ItemRef[],
): Promise<ItemRefreshRound> {
  const round: ItemRefreshRound = { refreshed: [], analyzed: [], failed: [] };
  for (const call of plexRefreshCalls(api, refs)) {
    const [ratingKey = ""] = call.keys;
    try {
      await call.run();
      round[call.kind].push(ratingKey);
    } catch (error) {
      if (error instanceof TargetAuthError) throw error;
      round.failed.push({ ratingKey, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return round;
}
