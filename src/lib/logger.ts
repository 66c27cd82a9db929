import { pino, type Logger as PinoLogger } from "pino";

export type Logger = PinoLogger;
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type LogFormat = "pretty" | "json";

/** Fields whose values never reach a log line, wherever they appear. */
const REDACT = [
  "pass",
  "SERVER_PASS",
  "token",
  "access_token",
  "refresh_token",
  "PLEX_TOKEN",
  "CLIENT_SECRET",
  "client_secret",
  "*.SERVER_PASS",
  "*.PLEX_TOKEN",
  "*.CLIENT_SECRET",
  "*.access_token",
  "*.refresh_token",
  "TARGETS[*].TOKEN",
  "TARGETS[*].PASSWORD",
  "*.TARGETS[*].TOKEN",
  "*.TARGETS[*].PASSWORD",
];

export interface LoggerOptions {
  level?: LogLevel;
  format?: LogFormat;
  color?: boolean;
  /** Where lines go; defaults to stderr so stdout stays for command output. */
  destination?: NodeJS.WritableStream;
}

/** The service logger: readable in a terminal, one JSON object per line when asked. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? "info";
  const destination = options.destination ?? process.stderr;
  const base = { level, redact: { paths: REDACT, censor: "[redacted]" }, base: undefined };
  if (options.format === "json") return pino(base, destination);
  return pino(base, prettyStream(destination, options.color ?? false));
}

function prettyStream(destination: NodeJS.WritableStream, color: boolean): NodeJS.WritableStream {
  return {
    write(chunk: string) {
      const line = JSON.parse(chunk) as Record<string, unknown>;
      destination.write(`${formatPretty(line, color)}\n`);
      return true;
    },
  } as NodeJS.WritableStream;
}

const LEVEL_NAMES: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const LEVEL_COLORS: Record<string, string> = {
  DEBUG: "\x1b[90m",
  INFO: "\x1b[36m",
  WARN: "\x1b[33m",
  ERROR: "\x1b[31m",
  FATAL: "\x1b[31m",
};

/** One terminal line: time, level, message, then the fields as key=value. */
export function formatPretty(line: Record<string, unknown>, color: boolean): string {
  const { time, level, msg, ...fields } = line;
  const name = LEVEL_NAMES[Number(level)] ?? String(level);
  const stamp = new Date(Number(time)).toISOString();
  const extra = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v)}`)
    .join(" ");
  const label = color ? `${LEVEL_COLORS[name] ?? ""}${name.padEnd(5)}\x1b[0m` : name.padEnd(5);
  return `${stamp} ${label} ${String(msg ?? "")}${extra ? ` ${extra}` : ""}`;
}

/** A logger that drops everything; for tests and for commands that print themselves. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
