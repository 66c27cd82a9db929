// Child process of crash.test.ts: acknowledges each committed request on stdout until killed.
import { systemClock } from "../../src/lib/clock.js";
import { silentLogger } from "../../src/lib/logger.js";
import { openDatabase } from "../../src/queue/storage/database.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";

const file = process.argv[2];
if (!file) throw new Error("usage: crash-child.ts <database file>");
const queue = new ScanQueue({ db: openDatabase(file), clock: systemClock, targets: ["plex"], delayMs: 60_000, logger: silentLogger() });
for (let i = 0; ; i++) {
  queue.enqueue([{ folder: `/data/TV/Show ${i}/Season 1`, source: "sonarr", event: "Download" }]);
  process.stdout.write(`ack ${i}\n`);
  if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
}
