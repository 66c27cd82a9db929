export { openDatabase, type Database } from "./database.js";
export { ScanQueue, defaultMaxWaitMs, type ScanQueueOptions } from "./scan-queue.js";
export { startDelivery, type DeliveryHandle, type DeliveryOptions, type DeliveryQueue } from "./scheduler.js";
export { DEFAULT_POLICY, type DeliveryPolicy, type BackoffPolicy } from "./policy.js";
export type { QueuedScan, DeliveryView, ScanState, DeliveryState, LibraryRef } from "./types.js";
export { createGroupCommit, type AsyncEnqueue } from "./group-commit.js";
