import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import type { Library, Target } from "../../src/domain.js";
import type { DeliveryTarget } from "../../src/delivery/deliver.js";
import { findLibrariesFor } from "../../src/paths/index.js";
import { ManualClock } from "../../src/lib/clock.js";
import { pino } from "pino";
import { silentLogger, type Logger } from "../../src/lib/logger.js";
import { openDatabase, type Database } from "../../src/queue/storage/database.js";
import { ScanQueue, type ScanQueueOptions } from "../../src/queue/scan-queue.js";
import { QueueReads } from "../../src/queue/views/queue-reads.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** A fresh database file in its own temp dir, closed and removed after the test. */
export function tempDatabase(): { db: Database; file: string; reopen(): Database } {
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-queue-"));
  const file = path.join(dir, "data", "scanarr.db");
  const handles: Database[] = [];
  const open = () => {
    const db = openDatabase(file);
    handles.push(db);
    return db;
  };
  cleanups.push(() => {
    for (const h of handles) if (h.open) h.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db: open(), file, reopen: open };
}

export function createQueue(overrides: Partial<ScanQueueOptions> = {}) {
  const clock = (overrides.clock as ManualClock | undefined) ?? new ManualClock();
  const db = overrides.db ?? tempDatabase().db;
  const queue = new ScanQueue({
    db,
    clock,
    targets: ["plex"],
    delayMs: 10_000,
    logger: silentLogger(),
    ...overrides,
  });
  // The scans as shown (state, reason, deliveries): the read side, beside the writer.
  return { queue, clock, db, reads: new QueueReads(db, clock) };
}

export function request(folder: string, source = "sonarr", event = "Download") {
  return { folder, source, event };
}

export const TV: Library = { id: "2", title: "TV", type: "show", locations: ["/data/TV"] };
export const MOVIES: Library = { id: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] };

export interface RecordingTarget extends Target {
  scans: Array<{ folder: string; library: string; at: number }>;
  /** Decides each scan's fate; resolves by default. */
  behaviour: (folder: string) => Promise<void> | void;
  libraries: Library[];
}

/** A plain-object target that records every scan it is asked for, with the clock time. */
export function recordingTarget(clock: ManualClock, name = "plex"): RecordingTarget {
  const target: RecordingTarget = {
    name,
    scansPerLibrary: true,
    scans: [],
    libraries: [TV, MOVIES],
    behaviour: () => undefined,
    listLibraries: async () => target.libraries,
    scan: async (folder, library) => {
      await target.behaviour(folder);
      target.scans.push({ folder, library: library.title, at: clock.now() });
    },
  };
  return target;
}

/** Lets pending promise callbacks (fake deliveries) run; no real time passes that matters. */
export async function flush(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Moves the clock and lets the deliveries it started settle. */
export async function advance(clock: ManualClock, ms: number): Promise<void> {
  clock.advance(ms);
  await flush();
}

export function deferred(): { promise: Promise<void>; resolve(): void; reject(e: unknown): void } {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A pino logger that keeps its lines as objects, to assert what was logged. */
export function capturingLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: "debug" }, { write: (chunk: string) => lines.push(JSON.parse(chunk) as Record<string, unknown>) });
  return { logger, lines };
}

/**
 * Moves the clock in steps, letting deliveries settle after each, so retries
 * that a completion schedules fire within the span (one big advance would
 * fire only the timers that existed when it started).
 */
export async function advanceInSteps(clock: ManualClock, ms: number, step = 250): Promise<void> {
  for (let moved = 0; moved < ms; moved += step) await advance(clock, Math.min(step, ms - moved));
}

/** A bare Target as the scheduler takes one, for tests: its own path form, a fresh library list on every delivery. */
export function deliveryTargetOf(target: Target): DeliveryTarget {
  let known: Library[] | undefined;
  return {
    target,
    libraries: {
      librariesFor: async (folder) => {
        known = await target.listLibraries();
        return findLibrariesFor(folder, known);
      },
      knownLibraries: () => known,
    },
    toTargetPath: (path) => path,
  };
}

/** Takes a database back to the shape migration 10 left (paths keyed in full), for the tests that upgrade an older file. */
export function backToVersion10(db: Database): void {
  db.exec(`DROP INDEX scan_request_scan_key; ALTER TABLE scan_request DROP COLUMN path_key;
    CREATE UNIQUE INDEX scan_request_scan_path ON scan_request (scan_id, path);
    CREATE TABLE scan_file_v10 (
      scan_id INTEGER NOT NULL REFERENCES scan_queue (id) ON DELETE CASCADE, path TEXT NOT NULL,
      deletion INTEGER NOT NULL DEFAULT 0, seen INTEGER NOT NULL DEFAULT 0, refresh INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (scan_id, path)) WITHOUT ROWID;
    INSERT INTO scan_file_v10 SELECT scan_id, path, deletion, seen, refresh FROM scan_file;
    DROP TABLE scan_file; ALTER TABLE scan_file_v10 RENAME TO scan_file;
    DELETE FROM scan_migrations WHERE version >= 11`);
}
