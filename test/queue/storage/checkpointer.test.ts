import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/lib/logger.js";
import { startCheckpointer } from "../../../src/queue/storage/checkpointer.js";
import { openDatabase } from "../../../src/queue/storage/database.js";
import type { CheckpointReport } from "../../../src/queue/storage/storage-watch.js";
import { canMountSmallDisk, mountDiskForTest } from "../../helpers/small-disk.js";
import { tempDatabase } from "../helpers.js";

const walBytes = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

/** About `mib` MiB of new pages, all in the WAL while no checkpoint runs. */
function writeNewPages(db: ReturnType<typeof openDatabase>, mib: number): void {
  db.exec("CREATE TABLE IF NOT EXISTS filler (x BLOB)");
  const insert = db.prepare("INSERT INTO filler (x) VALUES (randomblob(4000))");
  db.transaction(() => {
    for (let i = 0; i < mib * 256; i++) insert.run();
  })();
}

describe("the checkpoint thread", () => {
  it("empties a WAL that grew past its bound", async () => {
    const { db, file } = tempDatabase();
    writeNewPages(db, 2);
    expect(walBytes(file)).toBeGreaterThan(1 << 20);
    const reports: CheckpointReport[] = [];
    const checkpointer = startCheckpointer(file, silentLogger(), {
      intervalMs: 20,
      truncateAboveBytes: 64 * 1024,
      onReport: (r) => reports.push(r),
    });
    // The worker empties the WAL and only then posts its report, so the file can read 0 bytes before
    // the report arrives: wait for the report (the thing asserted), then check the file agrees.
    await expect.poll(() => reports.at(-1), { timeout: 5_000 }).toEqual({ ok: true, walBytes: 0 });
    expect(walBytes(file)).toBe(0);
    await checkpointer.stop();
  });

  describe.skipIf(!canMountSmallDisk)("on a small disk", () => {
    it("empties a WAL that takes more than a quarter of the disk's room, without waiting for the next checkpoint", async () => {
      const disk = mountDiskForTest(8 * 1024 * 1024);
      const file = path.join(disk.dir, "scanarr.db");
      const db = openDatabase(file);
      const reports: CheckpointReport[] = [];
      const checkpointer = startCheckpointer(file, silentLogger(), { intervalMs: 60_000, watchMs: 20, onReport: (r) => reports.push(r) });
      try {
        // 3 MiB of WAL beside about 5 MiB free: far below the 16 MiB bound, but more than a quarter of 8.
        writeNewPages(db, 3);
        await expect.poll(() => reports.at(-1), { timeout: 5_000 }).toEqual({ ok: true, walBytes: 0 });
        expect(walBytes(file)).toBe(0);
      } finally {
        await checkpointer.stop();
        db.close();
      }
    });
  });

  describe.skipIf(!canMountSmallDisk)("on a full disk", () => {
    it("reports the failure, tries again with a growing pause, and gives the WAL's bytes back once space returns", async () => {
      const disk = mountDiskForTest(8 * 1024 * 1024);
      const file = path.join(disk.dir, "scanarr.db");
      const db = openDatabase(file);
      writeNewPages(db, 2);
      disk.fill();
      const reports: CheckpointReport[] = [];
      const checkpointer = startCheckpointer(file, silentLogger(), { intervalMs: 20, maxBackoffMs: 200, onReport: (r) => reports.push(r) });
      try {
        await expect.poll(() => reports.filter((r) => !r.ok).length).toBeGreaterThanOrEqual(3);
        expect(reports.every((r) => !r.ok && r.code === "SQLITE_FULL")).toBe(true);
        const failedAt = reports.length;
        await new Promise((resolve) => setTimeout(resolve, 500));
        // 20, 40, 80, 160, then 200 ms at most between tries: a handful in half a second, not 25.
        expect(reports.length - failedAt).toBeLessThanOrEqual(5);
        disk.free();
        checkpointer.now();
        await expect.poll(() => reports.at(-1)).toEqual({ ok: true, walBytes: 0 });
        expect(walBytes(file)).toBe(0);
        expect((db.prepare("SELECT COUNT(*) AS n FROM filler").get() as { n: number }).n).toBe(512);
      } finally {
        await checkpointer.stop();
        db.close();
      }
    });
  });
});
