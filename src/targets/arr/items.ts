import { TargetFatalError, type Library } from "../../domain.js";
import { systemClock, type Clock } from "../../lib/clock.js";
import { SingleFlight } from "../../lib/single-flight.js";
import { findLibrariesFor } from "../../paths/index.js";
import type { ArrItem } from "./client.js";

/** How long one fetched list serves: the deliveries of one batch share it, the next batch fetches again. */
export const ITEM_LIST_MAX_AGE_MS = 30_000;
/** A miss refetches the list only when it is older than this (the item may have been added just now). */
export const ITEM_LIST_MISS_REFETCH_MS = 5_000;
/** More items than any real library holds; a longer answer is refused rather than kept. */
export const MAX_ITEMS = 200_000;

/**
 * The app's series or movies by folder, fetched at most once per delivery
 * batch (concurrent lookups share one fetch) and kept as id, title and
 * path only. The folder is matched by whole path components, the deepest
 * item first.
 */
export class ArrItemIndex {
  private list: { items: Library[]; byId: Map<string, ArrItem>; at: number } | undefined;
  private readonly flight = new SingleFlight<void>();
  private readonly clock: Pick<Clock, "now">;

  constructor(
    private readonly fetchItems: () => Promise<ArrItem[]>,
    clock: Pick<Clock, "now"> = systemClock,
  ) {
    this.clock = clock;
  }

  /** The item whose folder holds `folder` (or is it), or undefined when none does. */
  async holderOf(folder: string): Promise<ArrItem | undefined> {
    if (!this.list || this.ageMs() > ITEM_LIST_MAX_AGE_MS) await this.refetch();
    let found = this.find(folder);
    if (!found && this.ageMs() > ITEM_LIST_MISS_REFETCH_MS) {
      await this.refetch();
      found = this.find(folder);
    }
    return found;
  }

  private ageMs(): number {
    return this.list ? this.clock.now() - this.list.at : Number.POSITIVE_INFINITY;
  }

  private find(folder: string): ArrItem | undefined {
    if (!this.list) return undefined;
    const [best] = findLibrariesFor(folder, this.list.items);
    return best ? this.list.byId.get(best.id) : undefined;
  }

  private refetch(): Promise<void> {
    return this.flight.run(async () => {
      const items = await this.fetchItems();
      if (items.length > MAX_ITEMS) throw new TargetFatalError(`answered ${items.length} items; more than ${MAX_ITEMS} are not supported`);
      const byId = new Map(items.map((item) => [String(item.id), item]));
      // Items as libraries of one folder each, so the one path matcher (paths/within.ts) finds the holder.
      const asLibraries = items.map((item): Library => ({ id: String(item.id), title: item.title, type: "item", locations: [item.path] }));
      this.list = { items: asLibraries, byId, at: this.clock.now() };
    });
  }
}
