import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/lib/logger.js";
import { startCheckpointer } from "../../../src/queue/storage/checkpointer.js";
import { openDatabase, openServiceDatabase } from "../../../src/queue/storage/database.js";
import { prepareStatements } from "../../../src/queue/statements.js";
import { tempDatabase } from "../helpers.js";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length > 0) rmSync(dirs.pop() as string, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-db-"));
  dirs.push(dir);
  return dir;
}

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe("the service database", () => {
  it("keeps its folder 0700 and the database, WAL and SHM files 0600", () => {
    const dir = tempDir();
    const data = path.join(dir, "data");
    mkdirSync(data, { mode: 0o755 });
    writeFileSync(path.join(data, "scanarr.db"), "", { mode: 0o644 });
    const db = openDatabase(path.join(data, "scanarr.db"));
    db.prepare("INSERT INTO scan_migrations (version, applied_at) VALUES (99, 0)").run();
    expect(modeOf(data)).toBe(0o700);
    for (const name of ["scanarr.db", "scanarr.db-wal", "scanarr.db-shm"]) expect(modeOf(path.join(data, name))).toBe(0o600);
    db.close();
  });

  it("refuses, naming both versions, a queue a newer scanarr wrote, and changes nothing in it", () => {
    const { db, file } = tempDatabase();
    const known = (db.prepare("SELECT MAX(version) AS v FROM scan_migrations").get() as { v: number }).v;
    db.prepare("INSERT INTO scan_migrations (version, applied_at) VALUES (?, 0)").run(known + 1);
    db.close();
    expect(() => openDatabase(file)).toThrow(
      new RegExp(
        `^cannot open the database ${file}: its queue was written by a newer scanarr \\(queue version ${known + 1}; this scanarr .* knows up to ${known}\\)`,
      ),
    );
    expect(() => openServiceDatabase(file)).toThrow(expect.objectContaining({ name: "UserError", exitCode: 1 }));
  });

  it("names the file when it cannot be opened", () => {
    const dir = tempDir();
    const file = path.join(dir, "not-a-db");
    writeFileSync(file, "this is no SQLite database, just text long enough to be read as a header page");
    expect(() => openDatabase(file)).toThrow(`cannot open the database ${file}`);
  });

  it("leaves checkpoints to its own thread, which copies the WAL back", async () => {
    const { db, file } = tempDatabase();
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    const insert = db.prepare("INSERT INTO scan_migrations (version, applied_at) VALUES (?, ?)");
    db.transaction(() => {
      for (let i = 100; i < 2_100; i++) insert.run(i, i);
    })();
    const checkpointer = startCheckpointer(file, silentLogger(), { intervalMs: 20 });
    // A PASSIVE checkpoint from here reports [busy, frames in the WAL, frames already copied back].
    await expect
      .poll(() => {
        const [row] = db.pragma("wal_checkpoint(PASSIVE)") as Array<{ log: number; checkpointed: number }>;
        return row !== undefined && row.log > 0 && row.log === row.checkpointed;
      })
      .toBe(true);
    await checkpointer.stop();
  });

  it("claims through the claim index without sorting the backlog", () => {
    const { db } = tempDatabase();
    const st = prepareStatements(db);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array((sql.match(/\?/g) ?? []).length).fill(1)) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join("; ");
    expect(plan(st.claimable.source)).toMatch(/SEARCH d USING INDEX scan_delivery_claim \(target=\? AND priority=\? AND due_at<\?\)/);
    expect(plan(st.claimable.source)).not.toMatch(/TEMP B-TREE/);
    expect(plan(st.nextPriority.source)).toMatch(
      /SEARCH scan_delivery USING COVERING INDEX scan_delivery_claim \(target=\? AND priority>\?\)/,
    );
  });
});
