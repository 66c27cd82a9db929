/**
 * Drive monitor cost on a large drive: 20,000 folders and 200,000 files in the
 * loopback fake, the real @googleapis/drive client and a real SQLite file.
 * Reports API calls and wall time for a cold start, a poll with 5,000 new
 * files, a warm restart and an idle poll.
 *
 *   node --import tsx bench/drive-poll.ts [folders] [files] [newFiles]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { auth } from "@googleapis/drive";
import Database from "better-sqlite3";
import { defaultConfig } from "../src/config/defaults.js";
import type { ScanRequest } from "../src/domain.js";
import { startDriveMonitor, type DriveMonitor } from "../src/drive/monitor.js";
import { createIngest } from "../src/ingest/pipeline.js";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { createPathMapper } from "../src/paths/index.js";
import { startFakeDrive, type FakeDrive } from "../test/fakes/drive.js";

const [folderCount = 20_000, fileCount = 200_000, newFiles = 5_000] = process.argv.slice(2).map(Number);
const SEASONS = 8;

const fake = await startFakeDrive();
const seasons = buildDrive(fake);
const dir = mkdtempSync(path.join(tmpdir(), "scanarr-bench-"));
const dbFile = path.join(dir, "scanarr.db");
const config = { ...defaultConfig("a".repeat(32)) };
config.CLOUD = { ...config.CLOUD, ENABLED: true, API_URL: fake.url };
const credentials = new auth.OAuth2();
credentials.setCredentials({ access_token: "fake-access-token", expiry_date: Date.now() + 86_400_000 });
const queued: ScanRequest[] = [];

let db = new Database(dbFile);
let monitor = start(db);
const rows: string[][] = [];
await measure("cold start (folder cache build)", () => monitor.pollNow());
seasons.slice(0, newFiles).forEach((season, i) => fake.addFile(`New.Episode.${i}.mkv`, season));
await measure(`poll with ${newFiles} new files`, () => monitor.pollNow());
await monitor.stop();
db.close();
db = new Database(dbFile);
await measure("warm restart: first poll", async () => {
  monitor = start(db);
  await monitor.pollNow();
});
await measure("idle poll", () => monitor.pollNow());
await monitor.stop();
db.close();
await fake.close();
rmSync(dir, { recursive: true, force: true });

console.log(`drive: ${folderCount} folders, ${fileCount} files; scans queued by the ${newFiles}-file poll: ${queued.length}`);
console.log(["case", "calls", "changes.list", "files.list", "files.get", "other", "wall ms"].join(" | "));
for (const row of rows) console.log(row.join(" | "));
console.log(
  `targets: cold start <= ceil(${folderCount}/1000) + a few = ${Math.ceil(folderCount / 1000)} + ~3; poll <= ceil(${newFiles}/1000) = ${Math.ceil(newFiles / 1000)} per change log`,
);

function start(handle: Database.Database): DriveMonitor {
  return startDriveMonitor({
    config,
    db: handle,
    auth: credentials,
    logger: silentLogger(),
    clock: new ManualClock(),
    ingest: createIngest({
      mapper: createPathMapper(config.SERVER_PATH_MAPPINGS),
      ignoreList: config.SERVER_IGNORE_LIST,
      sink: {
        enqueue: async (requests) => {
          queued.push(...requests);
          return { queued: requests.map((r) => r.folder), covered: [] };
        },
      },
    }),
    mapper: createPathMapper(config.SERVER_PATH_MAPPINGS),
    mediaIndex: { hasFile: () => false },
  });
}

async function measure(label: string, run: () => Promise<void>): Promise<void> {
  fake.resetCalls();
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  const c = fake.calls;
  const other = c["changes.getStartPageToken"] + c["drives.list"];
  rows.push([
    label,
    String(fake.totalCalls),
    String(c["changes.list"]),
    String(c["files.list"]),
    String(c["files.get"]),
    String(other),
    ms.toFixed(0),
  ]);
}

/** Movies get one folder each; shows get a folder and SEASONS season folders. Files spread evenly. */
function buildDrive(drive: FakeDrive): string[] {
  const leaves: string[] = [];
  const seasonFolders: string[] = [];
  drive.seed(() => {
    const movies = drive.addFolderPath("Media/Movies");
    const tv = drive.addFolderPath("Media/TV");
    const budget = folderCount - 4;
    const shows = Math.floor(budget / 2 / (SEASONS + 1));
    for (let s = 0; s < shows; s++) {
      const show = drive.addFolder(`Show ${s}`, tv);
      for (let n = 1; n <= SEASONS; n++) seasonFolders.push(drive.addFolder(`Season ${n}`, show));
    }
    leaves.push(...seasonFolders);
    for (let m = 0; leaves.length < budget - shows; m++) leaves.push(drive.addFolder(`Movie ${m} (2000)`, movies));
    for (let f = 0; f < fileCount; f++) drive.addFile(`file-${f}.mkv`, leaves[f % leaves.length] ?? movies);
  });
  return seasonFolders;
}
