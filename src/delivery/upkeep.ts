import type { Logger } from "../lib/logger.js";
import type { DeliveryPolicy } from "./policy.js";
import type { ScanQueue } from "../queue/scan-queue.js";

export type UpkeepQueue = Pick<ScanQueue, "renewLeases" | "releaseExpiredLeases" | "nextLeaseEnd" | "expireWaiting" | "oldestWaitingSince">;

/** The scheduler's housekeeping: leases of claims in flight, and the 24 h limit of waiting scans. */
export interface Upkeep {
  /** Renews our claims while we hold some, and releases claims whose lease ran out. */
  keepLeases(now: number, holding: boolean): void;
  /** Gives up scans still waiting for a delivery `maxAgeMs` after their first request. */
  expireOld(now: number): void;
  /** When the upkeep next has work; the limit of waiting scans counts only when `withExpiry`. */
  nextWakeAt(now: number, holding: boolean, withExpiry: boolean): number;
}

const OLDEST_REFRESH_MS = 5_000;

export function createUpkeep(queue: UpkeepQueue, policy: DeliveryPolicy, logger: Logger, startedAt: number): Upkeep {
  let renewedAt = startedAt;
  let leasesCheckedAt = -Infinity;
  let oldestCache: { at: number | undefined; readAt: number } | undefined;

  // The oldest waiting scan only matters against a 24 h limit: it is looked up at most every
  // few seconds, not on each of the thousands of ticks a second a busy drain makes.
  function oldestWaiting(now: number): number | undefined {
    // "None waiting" is never trusted from the cache: a scan in flight when it was read may be
    // waiting again (a retry) without the queue announcing it.
    const cached = oldestCache;
    if (cached && cached.at !== undefined && now >= cached.readAt && now - cached.readAt < OLDEST_REFRESH_MS) return cached.at;
    const at = queue.oldestWaitingSince();
    oldestCache = { at, readAt: now };
    return at;
  }

  return {
    keepLeases(now, holding) {
      if (holding && now - renewedAt >= policy.leaseRenewMs) {
        queue.renewLeases();
        renewedAt = now;
      }
      if (now - leasesCheckedAt < policy.leaseRenewMs) return;
      leasesCheckedAt = now;
      const released = queue.releaseExpiredLeases();
      if (released.length > 0) {
        const owners = [...new Set(released.map((r) => r.owner))];
        logger.warn({ deliveries: released.length, owners }, "claims whose lease ran out were released; they will be delivered again");
      }
    },

    expireOld(now) {
      // A read first: the expiry is a write transaction, and this runs on every tick.
      const oldest = oldestWaiting(now);
      if (oldest === undefined || oldest > now - policy.maxAgeMs) return;
      const hours = Math.round(policy.maxAgeMs / 3_600_000);
      const reason = `gave up: not delivered within ${hours} h of the first request`;
      const expired = queue.expireWaiting(now - policy.maxAgeMs, reason);
      // The cached oldest scan was just given up: read the next one.
      oldestCache = undefined;
      if (expired.length > 0) {
        logger.warn({ count: expired.length, folders: expired.slice(0, 10).map((e) => e.folder) }, reason);
      }
    },

    nextWakeAt(now, holding, withExpiry) {
      let at = holding ? renewedAt + policy.leaseRenewMs : Infinity;
      const leaseEnd = queue.nextLeaseEnd();
      if (leaseEnd !== undefined) at = Math.min(at, Math.max(leaseEnd, leasesCheckedAt + policy.leaseRenewMs, now));
      const oldest = withExpiry ? oldestWaiting(now) : undefined;
      return oldest === undefined ? at : Math.min(at, oldest + policy.maxAgeMs);
    },
  };
}
