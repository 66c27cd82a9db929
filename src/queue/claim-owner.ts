import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

/** How long a claim holds without renewal; the scheduler renews every 30 s. */
export const DEFAULT_LEASE_MS = 2 * 60_000;

/** A claim owner unique to this process run: host, pid and a random tag. */
export function newOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}
