import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { WatchRoot } from "./config.js";
import type { PathFilter } from "./filter.js";
import type { WatchFs } from "./fs.js";
import type { DueFolder } from "./settle.js";

/** What every watcher needs, whatever its mode. */
export interface WatcherDeps {
  root: WatchRoot;
  fs: WatchFs;
  filter: PathFilter;
  clock: Clock;
  logger: Logger;
  /** False while a mount anchor is missing: nothing is recorded meanwhile. */
  anchorsOk: () => boolean;
  /** Queues due folders; resolves once committed. */
  emit: (due: DueFolder[]) => Promise<unknown>;
}
