import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Database } from "better-sqlite3";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { ManualClock } from "../../src/lib/clock.js";
import { silentLogger, type Logger } from "../../src/lib/logger.js";
import { openDatabase } from "../../src/queue/storage/database.js";
import type { FakePlex } from "../../test/fakes/plex.js";

export interface PlexQueueSetup {
  /** The temp dir holding the queue's database (remove it at the end). */
  dir: string;
  db: Database;
  clock: ManualClock;
  logger: Logger;
  config: Config;
}

/** A queue database in a temp dir, an injected clock, a silent logger and a config pointing at the fake Plex. */
export function plexQueueSetup(name: string, plex: Pick<FakePlex, "url" | "token">, extra: Partial<Config>): PlexQueueSetup {
  const dir = mkdtempSync(path.join(tmpdir(), `scanarr-bench-${name}-`));
  const config: Config = {
    ...defaultConfig("0123456789abcdef0123456789abcdef"),
    PLEX_LOCAL_URL: plex.url,
    PLEX_TOKEN: plex.token,
    ...extra,
  };
  return { dir, db: openDatabase(path.join(dir, "queue.db")), clock: new ManualClock(), logger: silentLogger(), config };
}
