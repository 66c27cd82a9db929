import type { NotificationEvent } from "../config/types.js";

/** Something a NOTIFICATIONS entry may be told; `at` is clock time (epoch ms). */
export type NotifyEvent =
  | { type: "scan-failed"; at: number; folder: string; target: string; error: string }
  | { type: "scan-unconfirmed"; at: number; folder: string; target: string; error: string }
  | { type: "target-down"; at: number; target: string; state: "unavailable" | "misconfigured"; since: number; failures: number }
  | { type: "target-up"; at: number; target: string; since: number }
  | { type: "anchors-missing"; at: number; missing: Array<{ path: string; reason: string }> }
  | { type: "anchors-back"; at: number; paths: string[] }
  | { type: "drive-failing"; at: number; problem: string }
  | { type: "drive-back"; at: number };

export type NotifyEventType = NotifyEvent["type"];

/** The entry's EVENTS name that brings each event: a problem and its end go together. */
export const SUBSCRIPTION_OF: Readonly<Record<NotifyEventType, NotificationEvent>> = {
  "scan-failed": "scan-failed",
  "scan-unconfirmed": "scan-unconfirmed",
  "target-down": "target-down",
  "target-up": "target-down",
  "anchors-missing": "anchors-missing",
  "anchors-back": "anchors-missing",
  "drive-failing": "drive-failing",
  "drive-back": "drive-failing",
};

/** Where events go; never throws and never waits (sending is batched elsewhere). */
export type Notify = (event: NotifyEvent) => void;
