/**
 * What decoding crypt names costs the Drive monitor: a poll of N new files
 * (5,000 by default) under an rclone crypt remote (names encrypted, decoded
 * in-process through CLOUD.RCLONE_REMOTE's view) against the same poll of a
 * plain tree of the same shape without a remote, in the same process,
 * alternating, several rounds. Reports API calls per poll, the process's CPU
 * per poll (the loopback fake Drive runs in this process and is included in
 * both), the names decoded per poll, and the CPU one decode costs (measured
 * apart, in batches, so a loaded machine does not count waiting as work).
 *
 *   node --import tsx bench/drive-crypt-poll.ts [shows] [newFiles] [rounds]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { auth } from "@googleapis/drive";
import Database from "better-sqlite3";
import { defaultConfig } from "../src/config/defaults.js";
import type { Config } from "../src/config/types.js";
import { startDriveMonitor, type DriveMonitor } from "../src/drive/monitor.js";
import type { NameDecoder, RemoteView } from "../src/drive/remote-view.js";
import { createIngest } from "../src/ingest/pipeline.js";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { createPathMapper } from "../src/paths/index.js";
import { createNameCipher } from "../src/rclone/crypt/index.js";
import { buildView } from "../src/rclone/monitor-remote.js";
import { obscurePassword } from "../src/rclone/obscure.js";
import { startFakeDrive, type FakeDrive } from "../test/fakes/drive.js";

const [shows = 250, newFiles = 5_000, rounds = 7] = process.argv.slice(2).map(Number);
const SEASONS = 8;
const PASSWORD = "bench crypt password";
const cipher = createNameCipher({
  password: PASSWORD,
  filenameEncryption: "standard",
  filenameEncoding: "base32",
  directoryNameEncryption: true,
});

const dir = mkdtempSync(path.join(tmpdir(), "scanarr-bench-crypt-"));
const base = defaultConfig("a".repeat(32));
const config: Config = {
  ...base,
  SERVER_PATH_MAPPINGS: { "/data/TV/": ["My Drive/Media/TV/", "My Drive/encrypt/Media/TV/"] },
  CLOUD: { ...base.CLOUD, ENABLED: true, ALLOWED: { ...base.CLOUD.ALLOWED, FILE_PATHS: [] } },
};

let decodedNames = 0;
const plain = await setUp(false);
const crypt = await setUp(true);
await plain.monitor.pollNow();
await crypt.monitor.pollNow();

const results: Record<"plain" | "crypt", Array<{ calls: number; changes: number; cpuMs: number; decoded: number; queued: number }>> = {
  plain: [],
  crypt: [],
};
for (let round = 0; round < rounds; round++) {
  for (const side of [plain, crypt]) {
    side.addNewFiles(round);
    side.fake.resetCalls();
    side.queued.length = 0;
    decodedNames = 0;
    const before = process.cpuUsage();
    await side.monitor.pollNow();
    const used = process.cpuUsage(before);
    results[side.name].push({
      calls: side.fake.totalCalls,
      changes: side.fake.calls["changes.list"],
      cpuMs: (used.user + used.system) / 1000,
      decoded: decodedNames,
      queued: side.queued.length,
    });
  }
}
// The CPU of one file name's decode, apart from the poll: batches of the poll's size, the median batch.
const names = Array.from({ length: newFiles }, (_, i) =>
  cipher.encryptSegment(`Show ${i % shows} - S01E${String(i).padStart(5, "0")}.mkv`, false),
);
const batches: number[] = [];
for (let b = 0; b < rounds; b++) {
  const before = process.cpuUsage();
  for (const name of names) cipher.decryptSegment(name, false);
  const used = process.cpuUsage(before);
  batches.push((used.user + used.system) / names.length);
}

for (const side of [plain, crypt]) {
  await side.monitor.stop();
  side.db.close();
  await side.fake.close();
}
rmSync(dir, { recursive: true, force: true });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
console.log(
  `tree: ${shows} shows x ${SEASONS} seasons; ${newFiles} new files per poll; ${rounds} rounds (medians; round 1 = cold folder-name memo)`,
);
console.log(["case", "calls", "changes.list", "queued", "names decoded", "CPU ms round 1", "CPU ms median"].join(" | "));
for (const name of ["plain", "crypt"] as const) {
  const r = results[name];
  console.log(
    [
      name === "plain" ? "plain names, no remote" : "crypt names, CLOUD.RCLONE_REMOTE",
      median(r.map((x) => x.calls)),
      median(r.map((x) => x.changes)),
      median(r.map((x) => x.queued)),
      median(r.map((x) => x.decoded)),
      r[0]!.cpuMs.toFixed(0),
      median(r.map((x) => x.cpuMs)).toFixed(0),
    ].join(" | "),
  );
}
const ratios = results.crypt.map((c, i) => c.cpuMs / results.plain[i]!.cpuMs);
const perNameUs = median(batches);
const decodeMs = (median(results.crypt.map((x) => x.decoded)) * perNameUs) / 1000;
console.log(`crypt/plain CPU per poll: median ${median(ratios).toFixed(3)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(", ")})`);
console.log(`one file name decoded: ${perNameUs.toFixed(1)} µs CPU (median of ${rounds} batches of ${names.length})`);
console.log(
  `decoding per poll: ${decodeMs.toFixed(0)} ms CPU = ${((decodeMs / median(results.plain.map((x) => x.cpuMs))) * 100).toFixed(0)} % of the plain poll's CPU`,
);
console.log(`target: API calls = ceil(${newFiles}/1000) = ${Math.ceil(newFiles / 1000)} per poll; decoding adds < 10 % to a poll's CPU`);

interface Side {
  name: "plain" | "crypt";
  fake: FakeDrive;
  db: Database.Database;
  monitor: DriveMonitor;
  queued: unknown[];
  addNewFiles(round: number): void;
}

/** A drive with the TV tree (plain, or encrypted under `encrypt/`), its monitor and what it queued. */
async function setUp(encrypted: boolean): Promise<Side> {
  const fake = await startFakeDrive();
  const seasons: Array<{ id: string; show: number; season: number }> = [];
  const named = (plainName: string, isDir: boolean) => (encrypted ? cipher.encryptSegment(plainName, isDir) : plainName);
  fake.seed(() => {
    const top = encrypted ? fake.addFolder("encrypt") : fake.rootId;
    const tv = fake.addFolder(named("TV", true), fake.addFolder(named("Media", true), top));
    for (let s = 0; s < shows; s++) {
      const show = fake.addFolder(named(`Show ${s}`, true), tv);
      for (let n = 1; n <= SEASONS; n++) seasons.push({ id: fake.addFolder(named(`Season ${n}`, true), show), show: s, season: n });
    }
  });
  const db = new Database(path.join(dir, `${encrypted ? "crypt" : "plain"}.db`));
  const queued: unknown[] = [];
  const credentials = new auth.OAuth2();
  credentials.setCredentials({ access_token: "fake-access-token", expiry_date: Date.now() + 86_400_000 });
  const cloud = { ...config.CLOUD, API_URL: fake.url };
  const mapper = createPathMapper(config.SERVER_PATH_MAPPINGS);
  const monitor = startDriveMonitor({
    config: { ...config, CLOUD: cloud },
    db,
    auth: credentials,
    view: encrypted ? cryptView() : undefined,
    logger: silentLogger(),
    clock: new ManualClock(),
    ingest: createIngest({
      mapper,
      ignoreList: [],
      sink: {
        enqueue: async (requests) => {
          queued.push(...requests);
          return { queued: requests.map((r) => r.folder), covered: [] };
        },
      },
    }),
    mapper,
    mediaIndex: { hasFile: () => false },
  });
  return {
    name: encrypted ? "crypt" : "plain",
    fake,
    db,
    monitor,
    queued,
    addNewFiles(round) {
      for (let i = 0; i < newFiles; i++) {
        const season = seasons[i % seasons.length]!;
        const episode = `Show ${season.show} - S${String(season.season).padStart(2, "0")}E${String(round * newFiles + i).padStart(5, "0")}.mkv`;
        fake.addFile(named(episode, false), season.id, encrypted ? "application/octet-stream" : "video/x-matroska");
      }
    },
  };
}

/** CLOUD.RCLONE_REMOTE "gcrypt:" over "gdrive:encrypt", its decodes counted. */
function cryptView(): RemoteView {
  const remotes = new Map<string, Record<string, string>>([
    ["gdrive", { type: "drive", client_id: "id", client_secret: "secret" }],
    ["gcrypt", { type: "crypt", remote: "gdrive:encrypt", password: obscurePassword(PASSWORD) }],
  ]);
  const view = buildView(
    {
      name: "gdrive",
      section: remotes.get("gdrive")!,
      folder: ["encrypt"],
      crypt: { name: "gcrypt", section: remotes.get("gcrypt")!, within: [] },
    },
    {},
    remotes,
  );
  const inner = view.crypt[0]!.decoder;
  const timed: NameDecoder = {
    decryptSegment(name, isDir) {
      decodedNames++;
      return inner.decryptSegment(name, isDir);
    },
    decryptSegments(names, isDir) {
      decodedNames += names.length;
      return inner.decryptSegments(names, isDir);
    },
  };
  return { ...view, crypt: [{ ...view.crypt[0]!, decoder: timed }] };
}
