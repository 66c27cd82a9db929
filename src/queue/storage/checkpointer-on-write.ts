import { statSync } from "node:fs";
import type { Logger } from "../../lib/logger.js";
import { startCheckpointer, type Checkpointer, type CheckpointerOnWrite, type CheckpointerOptions } from "./checkpointer.js";
import { WAL_TRUNCATE_BYTES } from "./database.js";

/**
 * The checkpointer (a worker thread with its own connection, about 17 MB) started
 * only once the WAL is written: a service nobody sends anything never pays for
 * it. Until then the WAL file is looked at every `intervalMs` (one stat); it
 * starts at the first change of the file's time or size, or at once when the
 * WAL left by an earlier run is already past the truncation bound, when a
 * checkpoint is asked for (`now`), or when the writer says it committed
 * (`begin`: the first second of a burst would otherwise pass without the
 * thread, the WAL emptied by the writer itself on the request path). Once
 * started it runs until `stop`.
 */
export function startCheckpointerOnWrite(file: string, logger: Logger, options: CheckpointerOptions = {}): CheckpointerOnWrite {
  const wal = `${file}-wal`;
  const intervalMs = options.intervalMs ?? 1_000;
  const seen = walStamp(wal);
  let running: Checkpointer | undefined;
  let watch: NodeJS.Timeout | undefined;
  const start = (): Checkpointer => {
    if (watch) clearInterval(watch);
    watch = undefined;
    running ??= startCheckpointer(file, logger, options);
    return running;
  };
  if (seen.size > (options.truncateAboveBytes ?? WAL_TRUNCATE_BYTES)) start();
  else {
    watch = setInterval(() => {
      const now = walStamp(wal);
      if (now.size !== seen.size || now.mtimeMs !== seen.mtimeMs) start();
    }, intervalMs);
    watch.unref();
  }
  return {
    begin: () => void start(),
    now: () => start().now(),
    async stop() {
      if (watch) clearInterval(watch);
      watch = undefined;
      await running?.stop();
    },
  };
}

function walStamp(wal: string): { size: number; mtimeMs: number } {
  try {
    const s = statSync(wal);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return { size: 0, mtimeMs: 0 };
  }
}
