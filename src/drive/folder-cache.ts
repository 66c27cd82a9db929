import type Database from "better-sqlite3";
import type { Logger } from "../lib/logger.js";
import type { DriveItem } from "./types.js";

interface Folder {
  name: string;
  parentId: string | undefined;
  logKey: string;
}

export type Resolution =
  | { kind: "path"; path: string }
  /** An ancestor we have never seen: fetch it and try again. */
  | { kind: "missing"; id: string }
  /** The chain ends outside every watched root (shared with me, or a loop). */
  | { kind: "outside" };

interface FolderRow {
  id: string;
  log_key: string;
  name: string;
  parent_id: string | null;
}

/** Deepest folder chain we follow; Drive has no cycles, so this only guards bad data. */
const MAX_DEPTH = 256;

/**
 * Folder id → (name, parent) for every watched log, in memory for lookups and
 * in drive_folders so a restart does not list the whole drive again.
 */
export class FolderCache {
  private readonly folders = new Map<string, Folder>();
  private readonly roots = new Map<string, string>();
  private readonly upsertRow: Database.Statement<[string, string, string, string | null]>;
  private readonly deleteRow: Database.Statement<[string, string]>;
  private readonly deleteLog: Database.Statement<[string]>;

  constructor(
    private readonly db: Database.Database,
    private readonly logger: Logger,
    private readonly showCacheLogs: boolean,
  ) {
    this.upsertRow = db.prepare(
      `INSERT INTO drive_folders (id, log_key, name, parent_id) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET log_key = excluded.log_key, name = excluded.name, parent_id = excluded.parent_id`,
    );
    this.deleteRow = db.prepare("DELETE FROM drive_folders WHERE id = ? AND log_key = ?");
    this.deleteLog = db.prepare("DELETE FROM drive_folders WHERE log_key = ?");
    const rows = db.prepare("SELECT id, log_key, name, parent_id FROM drive_folders").all() as FolderRow[];
    for (const row of rows) this.folders.set(row.id, { name: row.name, parentId: row.parent_id ?? undefined, logKey: row.log_key });
  }

  get size(): number {
    return this.folders.size;
  }

  setRoot(rootId: string, name: string): void {
    this.roots.set(rootId, name);
  }

  /** Replaces every folder of one log at once (the cold-start listing). */
  replaceLog(logKey: string, folders: DriveItem[]): void {
    this.db.transaction(() => {
      this.deleteLog.run(logKey);
      for (const folder of folders) this.upsertRow.run(folder.id, logKey, folder.name, folder.parentId ?? null);
    })();
    for (const [id, folder] of this.folders) if (folder.logKey === logKey) this.folders.delete(id);
    for (const folder of folders) this.folders.set(folder.id, { name: folder.name, parentId: folder.parentId, logKey });
  }

  /**
   * Applies one page's folder changes; replays are harmless because each
   * change is a current state. A removal only touches this log's folders: a
   * folder moved into a shared drive leaves My Drive's log as "removed" while
   * the shared drive's log already holds it.
   */
  apply(logKey: string, upserts: DriveItem[], removals: string[]): void {
    if (upserts.length === 0 && removals.length === 0) return;
    this.db.transaction(() => {
      for (const folder of upserts) this.upsertRow.run(folder.id, logKey, folder.name, folder.parentId ?? null);
      for (const id of removals) this.deleteRow.run(id, logKey);
    })();
    for (const folder of upserts) {
      const known = this.folders.get(folder.id);
      this.folders.set(folder.id, { name: folder.name, parentId: folder.parentId, logKey });
      if (this.showCacheLogs && (!known || known.name !== folder.name || known.parentId !== folder.parentId)) {
        this.logger.info(
          { id: folder.id, name: folder.name, parentId: folder.parentId },
          known ? "Drive folder cache: updated folder" : "Drive folder cache: added folder",
        );
      }
    }
    for (const id of removals) {
      if (this.folders.get(id)?.logKey !== logKey) continue;
      this.folders.delete(id);
      if (this.showCacheLogs) this.logger.info({ id }, "Drive folder cache: removed folder");
    }
  }

  /** Full path of folder `id` (a root or a cached folder), walking parents in memory. */
  resolve(id: string): Resolution {
    const names: string[] = [];
    let current: string | undefined = id;
    for (let depth = 0; current !== undefined && depth < MAX_DEPTH; depth++) {
      const rootName = this.roots.get(current);
      if (rootName !== undefined) return { kind: "path", path: [rootName, ...names.reverse()].join("/") };
      const folder = this.folders.get(current);
      if (!folder) return { kind: "missing", id: current };
      names.push(folder.name);
      current = folder.parentId;
    }
    return { kind: "outside" };
  }
}
