import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/lib/logger.js";
import { openDatabase, type Database } from "../../../src/queue/storage/database.js";
import type { QueueEvents, QueueListener } from "../../../src/queue/events.js";
import { guardWal } from "../../../src/queue/storage/wal-guard.js";
import { canMountSmallDisk, mountDiskForTest } from "../../helpers/small-disk.js";

const walBytes = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

/** A queue's events as far as the guard hears them: `commit()` is one commit's event. */
function events(): QueueEvents & { commit(): void } {
  const listeners: QueueListener[] = [];
  return {
    subscribe(listener) {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
    commit() {
      for (const listener of listeners) listener({ type: "leases-released", at: 0, deliveries: 0 });
    },
  };
}

describe.skipIf(!canMountSmallDisk)("the writer's WAL guard", () => {
  it("empties the WAL after a commit once it holds half the room on its disk, and leaves a smaller one alone", async () => {
    const disk = mountDiskForTest(8 * 1024 * 1024);
    const file = path.join(disk.dir, "scanarr.db");
    const db = openDatabase(file);
    const queue = events();
    const unguard = guardWal(db, file, queue, silentLogger());
    try {
      // The same 64 pages written again and again, as a queue's commits do: the WAL grows, the database does not.
      db.exec("CREATE TABLE filler (x BLOB)");
      db.exec(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64) INSERT INTO filler (x) SELECT randomblob(4000) FROM n",
      );
      const rewrite = db.prepare("UPDATE filler SET x = randomblob(4000)");
      const write = (mib: number) => {
        for (let i = 0; i < mib * 4; i++) rewrite.run();
      };
      write(1);
      queue.commit();
      await Promise.resolve();
      expect(walBytes(file)).toBeGreaterThan(1 << 20);
      // 5 MiB of WAL beside about 3 MiB free: more than half of the 8.
      write(4);
      queue.commit();
      await Promise.resolve();
      expect(walBytes(file)).toBe(0);
      expect((db.prepare("SELECT COUNT(*) AS n FROM filler").get() as { n: number }).n).toBe(64);
      // Its own short wait is undone: the queue's writes keep waiting as long as before.
      expect(db.pragma("busy_timeout", { simple: true })).toBe(5_000);
    } finally {
      unguard();
      db.close();
    }
  });
});

describe("the writer's WAL guard while another program reads", () => {
  it("tries once while a reader holds its snapshot, not at every commit, and empties the WAL once the reader is gone", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "scanarr-guard-"));
    const file = path.join(dir, "scanarr.db");
    const db = openDatabase(file);
    // The handle as the guard sees it, counting the checkpoints it asks for.
    const tries: string[] = [];
    const seen = new Proxy(db, {
      get(target, key) {
        if (key !== "pragma") return Reflect.get(target, key, target);
        return (sql: string, options?: { simple?: boolean }) => {
          if (sql.startsWith("wal_checkpoint")) tries.push(sql);
          return target.pragma(sql, options);
        };
      },
    }) as Database;
    const queue = events();
    const unguard = guardWal(seen, file, queue, silentLogger());
    const reader = new BetterSqlite3(file, { readonly: true });
    try {
      db.exec("CREATE TABLE filler (x BLOB)");
      const insert = db.prepare("INSERT INTO filler (x) VALUES (randomblob(1000))");
      const write = (kib: number) =>
        db.transaction(() => {
          for (let i = 0; i < kib; i++) insert.run();
        })();
      reader.exec("BEGIN");
      reader.prepare("SELECT COUNT(*) FROM filler").get();
      write(4 * 1024);
      queue.commit();
      await Promise.resolve();
      expect(tries).toEqual(["wal_checkpoint(TRUNCATE)"]);
      expect(walBytes(file)).toBeGreaterThan(3 << 20);
      write(256);
      queue.commit();
      await Promise.resolve();
      expect(tries).toHaveLength(1);
      reader.exec("COMMIT");
      write(3 * 1024);
      queue.commit();
      await Promise.resolve();
      expect(tries).toHaveLength(2);
      expect(walBytes(file)).toBe(0);
      expect(db.pragma("busy_timeout", { simple: true })).toBe(5_000);
    } finally {
      reader.close();
      unguard();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
