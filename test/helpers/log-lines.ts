import { pino } from "pino";
import type { Logger } from "../../src/lib/logger.js";

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  msg: string;
  fields: Record<string, unknown>;
  /** The whole line as written, to assert that no secret reached it. */
  raw: string;
}

const LEVELS: Record<number, LogLine["level"]> = { 20: "debug", 30: "info", 40: "warn", 50: "error" };

/** A real pino logger (with scanarr's redaction off) whose lines are kept for assertions. */
export function recordingLogger(): { logger: Logger; lines: LogLine[]; at(level: LogLine["level"]): string[] } {
  const lines: LogLine[] = [];
  const logger = pino(
    { level: "debug", base: undefined },
    {
      write(chunk: string) {
        const { level, msg, time: _time, ...fields } = JSON.parse(chunk) as Record<string, unknown>;
        lines.push({ level: LEVELS[Number(level)] ?? "error", msg: String(msg), fields, raw: chunk });
      },
    },
  );
  return { logger, lines, at: (level) => lines.filter((l) => l.level === level).map((l) => l.msg) };
}
