import Database from "better-sqlite3";
import { UserError } from "../../domain.js";
import { messageOf } from "../../lib/errors.js";

/** An open Plex library database and the statements asked of it. */
export interface OpenedLibraryDb<K extends string> {
  db: Database.Database;
  statements: Record<K, Database.Statement>;
}

/**
 * Opens Plex's `com.plexapp.plugins.library.db` read-only and prepares
 * `queries`. Only plain tables may be queried: Plex's FTS/ICU tables and
 * triggers need Plex's own SQLite build, and only Plex may write to the
 * file. A missing or unreadable file, or one that is not a Plex database,
 * is a UserError naming PLEX_DATABASE_PATH (the database is closed again).
 */
export function openLibraryDb<K extends string>(file: string, queries: Record<K, string>): OpenedLibraryDb<K> {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new UserError(`cannot open the Plex database ${file} (PLEX_DATABASE_PATH): ${describe(error)}`);
  }
  const statements = {} as Record<K, Database.Statement>;
  try {
    for (const key of Object.keys(queries) as K[]) statements[key] = db.prepare(queries[key]);
  } catch (error) {
    db.close();
    throw new UserError(`${file} does not look like a Plex library database (PLEX_DATABASE_PATH): ${describe(error)}`);
  }
  return { db, statements };
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "SQLITE_CANTOPEN") return "the file is missing or not readable by this user";
  return messageOf(error);
}
