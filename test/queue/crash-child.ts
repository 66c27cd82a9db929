// Child process of crash.test.ts: acknowledges each committed request on stdout until killed.
import { systemClock } from "../../src/lib/clock.js";
import { silentLogger } from "../../src/lib/logger.js";
import { openDatabase } from "../../src/queue/storage/database.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";

// "folders": each request a new folder; "files": each a new file in one of 10 open folders (merges).
const [file, mode = "folders"] = process.argv.slice(2);
if (!file) throw new Error("usage: crash-child.ts <database file> [folders|files]");
const queue = new ScanQueue({ db: openDatabase(file), clock: systemClock, targets: ["plex"], delayMs: 60_000, logger: silentLogger() });
const requestOf = (i: number) => {
  if (mode === "folders") return { folder: `/data/TV/Show ${i}/Season 1`, source: "sonarr", event: "Download" };
  const folder = `/data/TV/Show ${i % 10}/Season 1`;
  return { folder, source: "sonarr", event: "Download", files: [`${folder}/E${i}.mkv`] };
};
for (let i = 0; ; i++) {
  queue.enqueue([requestOf(i)]);
  process.stdout.write(`ack ${i}\n`);
  if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
}
