import { readFileSync, readdirSync, readlinkSync } from "node:fs";

/** Resident set size of a process, from /proc/<pid>/status (Linux). */
export function readRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) * 1024;
}

/**
 * The TCP port a process listens on, from its socket inodes and
 * /proc/<pid>/net/tcp; undefined while it listens on none. Needed when the
 * log level hides the "listening" line.
 */
export function findListeningPort(pid: number): number | undefined {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => safeReadlink(`/proc/${pid}/fd/${fd}`))
        .map((link) => /^socket:\[(\d+)\]$/.exec(link ?? "")?.[1])
        .filter((inode): inode is string => inode !== undefined),
    );
  } catch {
    return undefined;
  }
  for (const line of readFileSync(`/proc/${pid}/net/tcp`, "utf8").split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    const [local, state, inode] = [fields[1], fields[3], fields[9]];
    // State 0A is LISTEN.
    if (state === "0A" && inode !== undefined && inodes.has(inode) && local) return parseInt(local.split(":")[1] ?? "", 16);
  }
  return undefined;
}

function safeReadlink(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined; // the fd closed between readdir and readlink
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
export function readCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100; // USER_HZ is 100 on Linux
}
