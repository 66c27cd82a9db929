import { existsSync, statSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/lib/logger.js";
import type { CheckpointerOnWrite } from "../../../src/queue/storage/checkpointer.js";
import { startCheckpointerOnWrite } from "../../../src/queue/storage/checkpointer-on-write.js";
import type { openDatabase } from "../../../src/queue/storage/database.js";
import type { CheckpointReport } from "../../../src/queue/storage/storage-watch.js";
import { tempDatabase } from "../helpers.js";

const walBytes = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

function writeRows(db: ReturnType<typeof openDatabase>, rows: number): void {
  db.exec("CREATE TABLE IF NOT EXISTS filler (x BLOB)");
  const insert = db.prepare("INSERT INTO filler (x) VALUES (randomblob(4000))");
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run();
  })();
}

const started: CheckpointerOnWrite[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
});

/** The checkpointer on `file`; its reports (only its thread sends them) show whether the thread runs. */
function watch(file: string, options: { intervalMs: number; truncateAboveBytes?: number }): CheckpointReport[] {
  const reports: CheckpointReport[] = [];
  started.push(startCheckpointerOnWrite(file, silentLogger(), { ...options, onReport: (r) => reports.push(r) }));
  return reports;
}

describe("the checkpoint thread, started on the first write", () => {
  it("does not start while nothing is written, and starts once the WAL is", async () => {
    const quiet = tempDatabase();
    const written = tempDatabase();
    const quietReports = watch(quiet.file, { intervalMs: 20 });
    const writtenReports = watch(written.file, { intervalMs: 20 });
    writeRows(written.db, 10);
    // Both files are looked at on the same interval: by the time the written one's thread has
    // checkpointed, the quiet one has been looked at as often.
    await expect.poll(() => writtenReports.length).toBeGreaterThan(1);
    expect(quietReports).toEqual([]);
    writeRows(quiet.db, 10);
    await expect.poll(() => quietReports.length).toBeGreaterThan(0);
    expect(quietReports[0]?.ok).toBe(true);
  });

  it("starts at once for a WAL an earlier run left past the truncation bound", async () => {
    const { db, file } = tempDatabase();
    writeRows(db, 512);
    expect(walBytes(file)).toBeGreaterThan(1 << 20);
    watch(file, { intervalMs: 20, truncateAboveBytes: 64 * 1024 });
    await expect.poll(() => walBytes(file)).toBe(0);
  });

  it("starts when the writer says it committed, before its own look at the WAL would see it", async () => {
    const { db, file } = tempDatabase();
    // The file is looked at once a minute: only `begin` can start the thread within this test.
    watch(file, { intervalMs: 60_000, truncateAboveBytes: 64 * 1024 });
    started[0]?.begin();
    writeRows(db, 64);
    expect(walBytes(file)).toBeGreaterThan(64 * 1024);
    await expect.poll(() => walBytes(file)).toBe(0);
  });

  it("starts when a checkpoint is asked for, and empties the WAL", async () => {
    const { db, file } = tempDatabase();
    writeRows(db, 10);
    const reports = watch(file, { intervalMs: 60_000 });
    started[0]?.now();
    await expect.poll(() => reports.at(-1)).toEqual({ ok: true, walBytes: 0 });
  });
});
