import { readFileSync, statSync } from "node:fs";

/**
 * The processes holding a lock on any of `files` (Linux: /proc/locks, where
 * SQLite's POSIX locks show up with their owner), as "pid 123 (sqlite3)";
 * empty when that cannot be told (another system, another container).
 */
export function lockHolders(files: readonly string[]): string[] {
  let table: string;
  try {
    table = readFileSync("/proc/locks", "utf8");
  } catch {
    return [];
  }
  const ids = new Set<string>();
  for (const file of files) {
    try {
      const s = statSync(file);
      ids.add(`${hex(major(s.dev))}:${hex(minor(s.dev))}:${s.ino}`);
    } catch {
      // Absent (-wal, -shm): nothing to hold.
    }
  }
  const pids = new Set<number>();
  for (const line of table.split("\n")) {
    // "1: POSIX  ADVISORY  WRITE 3547 00:2f:1317556 1073741824 1073742335"; waiters carry "->" and are not holders.
    const fields = line.trim().split(/\s+/);
    if (fields[1] === "->") continue;
    const [pid, id] = [Number(fields[4]), fields[5]];
    if (id !== undefined && ids.has(id.toLowerCase()) && Number.isInteger(pid) && pid > 0 && pid !== process.pid) pids.add(pid);
  }
  return [...pids].map((pid) => `pid ${pid}${commandOf(pid)}`);
}

function commandOf(pid: number): string {
  try {
    return ` (${readFileSync(`/proc/${pid}/comm`, "utf8").trim()})`;
  } catch {
    return "";
  }
}

// dev_t as Linux encodes it (see <sys/sysmacros.h>); /proc/locks prints major and minor in hex.
function major(dev: number): number {
  return Number((BigInt(dev) >> 8n) & 0xfffn) | Number((BigInt(dev) >> 32n) & ~0xfffn);
}

function minor(dev: number): number {
  return Number(BigInt(dev) & 0xffn) | Number((BigInt(dev) >> 12n) & ~0xffn);
}

function hex(n: number): string {
  return n.toString(16).padStart(2, "0");
}
