/**
 * One monitor under test: the fake Drive on loopback, the real
 * @googleapis/drive client, a real SQLite file in a temp dir, a recording
 * sink and a media index over a Set.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { auth } from "@googleapis/drive";
import Database from "better-sqlite3";
import { defaultConfig } from "../../src/config/defaults.js";
import type { CloudConfig, Config } from "../../src/config/types.js";
import type { EnqueueOutcome, ScanRequest, ScanSink } from "../../src/domain.js";
import { startDriveMonitor, type DriveMonitor, type MediaIndex } from "../../src/drive/monitor.js";
import { ManualClock } from "../../src/lib/clock.js";
import { createLogger, type Logger } from "../../src/lib/logger.js";
import { createIngest } from "../../src/ingest/pipeline.js";
import { createPathMapper } from "../../src/paths/index.js";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";

export class RecordingSink implements ScanSink {
  readonly requests: ScanRequest[] = [];
  failures = 0;
  async enqueue(requests: ScanRequest[]): Promise<EnqueueOutcome> {
    if (this.failures > 0) {
      this.failures--;
      throw new Error("queue database is locked");
    }
    // What the way in names; the paths behind each (origins, for `scanarr status`) are tested in test/ingest.
    this.requests.push(...requests.map(({ origins: _, ...r }) => r));
    return { queued: requests.map((r) => r.folder), covered: [] };
  }
  get folders(): string[] {
    return this.requests.map((r) => r.folder);
  }
}

/** Log lines as objects, so tests can assert what the operator would read. */
export class LogCapture {
  readonly lines: Record<string, unknown>[] = [];
  readonly logger: Logger = createLogger({
    level: "debug",
    format: "json",
    destination: { write: (chunk: string) => this.push(chunk) } as unknown as NodeJS.WritableStream,
  });
  private push(chunk: string): boolean {
    this.lines.push(JSON.parse(chunk) as Record<string, unknown>);
    return true;
  }
  messages(level?: number): string[] {
    return this.lines.filter((l) => level === undefined || l.level === level).map((l) => String(l.msg));
  }
}

export function testConfig(cloud: Partial<CloudConfig> = {}): Config {
  const base = defaultConfig("a".repeat(32));
  return {
    ...base,
    SERVER_PATH_MAPPINGS: {
      "/data/Movies/": ["/mnt/unionfs/Media/Movies/", "My Drive/Media/Movies/"],
      "/data/TV/": ["/mnt/unionfs/Media/TV/", "My Drive/Media/TV/"],
      "/data/Shared/": ["Team Media/Media/"],
    },
    CLOUD: { ...base.CLOUD, ENABLED: true, POLL_INTERVAL: 60, ...cloud },
  };
}

export interface Harness {
  fake: FakeDrive;
  db: Database.Database;
  dbFile: string;
  sink: RecordingSink;
  inPlex: Set<string>;
  clock: ManualClock;
  logs: LogCapture;
  monitor: DriveMonitor;
  /** Polls and drives the manual clock until the poll ends (backoff sleeps included); returns the sleeps asked for. */
  poll(): Promise<number[]>;
  /** A new monitor on a new database handle, as after a restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(
  config: Config = testConfig(),
  fake?: FakeDrive,
  mediaIndex?: MediaIndex,
  onPoll?: (ok: boolean) => void,
): Promise<Harness> {
  const drive = fake ?? (await startFakeDrive());
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-drive-"));
  const dbFile = path.join(dir, "scanarr.db");
  const sleeps: number[] = [];
  const clock = new ManualClock();
  const setTimeout = clock.setTimeout.bind(clock);
  clock.setTimeout = (fn, ms) => {
    sleeps.push(ms);
    return setTimeout(fn, ms);
  };
  const credentials = new auth.OAuth2();
  credentials.setCredentials({ access_token: "fake-access-token", expiry_date: Date.now() + 365 * 86_400_000 });
  const h = {
    fake: drive,
    dbFile,
    sink: new RecordingSink(),
    inPlex: new Set<string>(),
    clock,
    logs: new LogCapture(),
  } as Harness;
  const open = (): void => {
    h.db = new Database(dbFile);
    const mapper = createPathMapper(config.SERVER_PATH_MAPPINGS);
    // A late-bound sink, so a test can swap h.sink.enqueue.
    const sink = { enqueue: (requests: ScanRequest[]) => h.sink.enqueue(requests) };
    h.monitor = startDriveMonitor({
      config: { ...config, CLOUD: { ...config.CLOUD, API_URL: drive.url } },
      db: h.db,
      ingest: createIngest({ mapper, ignoreList: config.SERVER_IGNORE_LIST, sink }),
      mapper,
      mediaIndex: mediaIndex ?? { hasFile: (p) => h.inPlex.has(p) },
      auth: credentials,
      logger: h.logs.logger,
      clock,
      random: () => 0.5,
      onPoll,
    });
  };
  h.poll = async () => {
    sleeps.length = 0;
    let settled = false;
    const done = h.monitor.pollNow().finally(() => (settled = true));
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!settled) clock.advance(250);
    }
    await done;
    // The last timer is the next scheduled poll, not a backoff sleep.
    return sleeps.slice(0, -1);
  };
  h.restart = async () => {
    await h.monitor.stop();
    h.db.close();
    open();
  };
  h.close = async () => {
    await h.monitor.stop();
    h.db.close();
    if (!fake) await drive.close();
    rmSync(dir, { recursive: true, force: true });
  };
  open();
  return h;
}
