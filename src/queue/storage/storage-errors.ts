import path from "node:path";

/** What kind of trouble keeps the database from writing. */
export type StorageTrouble = "full" | "io" | "read-only";

const ERRNO: Record<string, StorageTrouble> = { ENOSPC: "full", EDQUOT: "full", EIO: "io", EROFS: "read-only" };

/**
 * The storage trouble behind an error from SQLite or the file system, or
 * undefined for any other error (a lock, a constraint, our bug). SQLite says
 * SQLITE_FULL for ENOSPC, SQLITE_IOERR_* for a failed write or a -shm it
 * cannot grow, SQLITE_READONLY for a file system remounted read-only.
 */
export function storageTroubleOf(error: unknown): StorageTrouble | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return undefined;
  // SHMSIZE: SQLite could not grow the -shm file, which on Linux means the disk has no room for it.
  if (code === "SQLITE_FULL" || code === "SQLITE_IOERR_SHMSIZE") return "full";
  if (code.startsWith("SQLITE_IOERR")) return "io";
  if (code === "SQLITE_READONLY" || code === "SQLITE_READONLY_DBMOVED") return "read-only";
  return ERRNO[code];
}

/** One sentence for a log line, /health and a refused request: where, what, and the code. No secret is in it. */
export function describeStorageTrouble(error: unknown, database: string): string {
  const dir = path.dirname(database);
  const code = (error as { code?: string }).code ?? "unknown";
  switch (storageTroubleOf(error)) {
    case "full":
      return `the disk holding ${dir} is full (${code}): the database ${path.basename(database)} cannot write`;
    case "read-only":
      return `the database ${database} is read-only (${code}): check that its file system is mounted read-write and that serve's user owns the file`;
    default:
      return `the database ${database} cannot write: disk I/O error (${code})`;
  }
}

/** The queue refused to write because the database cannot write now; nothing of the request was written. */
export class DatabaseUnwritableError extends Error {
  constructor(readonly reason: string) {
    super(`not queued, nothing was written: ${reason}. Requests are accepted again within seconds of it writing again (see /health)`);
    this.name = "DatabaseUnwritableError";
  }
}
