import type { Database } from "better-sqlite3";
import { UserError } from "../../domain.js";
import { packageVersion } from "../../lib/version.js";
import { pathKey } from "../path-key.js";
import { MIGRATIONS } from "./schema.js";

/** Brings the queue tables to the latest version; safe to run on every open. */
export function migrateQueue(db: Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS scan_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const row = db.prepare("SELECT MAX(version) AS version FROM scan_migrations").get() as { version: number | null };
  const current = row.version ?? 0;
  // A newer scanarr's tables (migration 11 changed how paths are keyed) would take this one's writes wrongly.
  if (current > MIGRATIONS.length) {
    throw new UserError(
      `its queue was written by a newer scanarr (queue version ${current}; this scanarr ${packageVersion()} knows up to ${MIGRATIONS.length}): run that newer version again`,
      1,
    );
  }
  if (current === MIGRATIONS.length) return;
  // Table rebuilds must not cascade deletes through the foreign keys; the
  // pragma is a no-op inside a transaction, so it is switched around them.
  const foreignKeys = db.pragma("foreign_keys", { simple: true }) as number;
  // Migration 11 stores each path's key; the function lives on this connection only.
  db.function("scanarr_path_key", { deterministic: true }, (p) => pathKey(String(p)));
  db.pragma("foreign_keys = OFF");
  try {
    MIGRATIONS.forEach((sql, index) => {
      const version = index + 1;
      if (version <= current) return;
      db.transaction(() => {
        db.exec(sql);
        const broken = db.pragma("foreign_key_check") as unknown[];
        if (broken.length > 0) throw new Error(`queue migration ${version} left ${broken.length} broken references`);
        db.prepare("INSERT INTO scan_migrations (version, applied_at) VALUES (?, ?)").run(version, Date.now());
      })();
    });
  } finally {
    if (foreignKeys) db.pragma("foreign_keys = ON");
  }
}
