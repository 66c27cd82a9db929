import type { Server } from "node:http";
import path from "node:path";
import type { Library } from "../../src/domain.js";
import { libraryRootsOf } from "../../src/ingest/library-check.js";
import { createIngest } from "../../src/ingest/pipeline.js";
import type { Clock } from "../../src/lib/clock.js";
import { createLogger } from "../../src/lib/logger.js";
import { createPathMapper } from "../../src/paths/mapper.js";
import { openDatabase } from "../../src/queue/storage/database.js";
import { createGroupCommit } from "../../src/queue/group-commit.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";
import { QueueReads } from "../../src/queue/views/queue-reads.js";
import { createScanServer, listen } from "../../src/server/app.js";
import type { CompatDeps } from "../../src/server/compat/deps.js";
import { catalogOfLibraries } from "../helpers/catalog.js";
import { tempDir } from "../helpers/cli.js";

export const COMPAT_PASS = "0123456789abcdef0123456789abcdef";

export interface CompatServer {
  origin: string;
  /** Scans committed to the queue. */
  pending(): number;
  close(): Promise<void>;
}

/**
 * The scan server alone on 127.0.0.1:0 with the /triggers routes built from
 * `compat` (a test passes its own Basic check or hash check to count calls),
 * a real SQLite queue and fixed libraries; no targets deliver anything.
 */
export async function startCompatServer(options: {
  compat: Omit<CompatDeps, "libraryRoots"> & Partial<Pick<CompatDeps, "libraryRoots">>;
  clock: Clock;
  libraries: Library[];
}): Promise<CompatServer> {
  const dir = tempDir("scanarr-compat-");
  const db = openDatabase(path.join(dir, "scanarr.db"));
  const logger = createLogger({ level: "silent", format: "json" });
  const queue = new ScanQueue({ db, clock: options.clock, targets: ["plex"], delayMs: 60_000, priorities: {}, logger });
  const mapper = createPathMapper({});
  const catalog = catalogOfLibraries(options.libraries);
  const sink = createGroupCommit(queue, (fn) => queue.batch(fn), ScanQueue.checkRequests);
  const server: Server = createScanServer({
    pass: COMPAT_PASS,
    queue: new QueueReads(db, options.clock),
    logger,
    clock: options.clock,
    mapper,
    allowManual: true,
    ingest: createIngest({ mapper, ignoreList: [], catalog, sink }),
    compat: { libraryRoots: (file) => libraryRootsOf(file, catalog, 3_000), ...options.compat },
  });
  const address = await listen(server, "127.0.0.1", 0);
  return {
    origin: `http://127.0.0.1:${address.port}`,
    pending: () => queue.countPending(),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
    },
  };
}
