import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

type Task = () => void | Promise<void>;
const tasks: Task[] = [];

/** Registers work to undo (kill a child, close a server, remove a dir); runs last-in first-out. */
export function onCleanup(task: Task): void {
  tasks.push(task);
}

/** Runs every registered task once, even when one of them fails. */
export async function runCleanup(): Promise<void> {
  while (tasks.length > 0) {
    const task = tasks.pop();
    try {
      await task?.();
    } catch (error) {
      console.error(`cleanup step failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A fresh temp dir, removed by runCleanup(). */
export function makeTempDir(prefix = "scanarr-bench-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Ctrl-C during a bench must not leave children or temp dirs behind.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void runCleanup().finally(() => process.exit(130));
  });
}
