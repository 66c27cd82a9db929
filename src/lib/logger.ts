import { pino, type Logger as PinoLogger } from "pino";

export type Logger = PinoLogger;
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type LogFormat = "pretty" | "json";

/**
 * Fields of the wire formats whose values never reach a log line, wherever
 * they appear (OAuth answers, the pass). The config's secrets come from its
 * schema (config/secrets.ts secretLogPaths), passed in `redact`.
 */
const REDACT = ["pass", "token", "access_token", "refresh_token", "client_secret"];
/** An OAuth answer's tokens are also censored one level down, under any field (`{ answer: { access_token } }`). */
const NESTED_SECRETS = ["access_token", "refresh_token"] as const;
const CENSOR = "[redacted]";

export interface LoggerOptions {
  level?: LogLevel;
  format?: LogFormat;
  color?: boolean;
  /** Where lines go; defaults to stderr so stdout stays for command output. */
  destination?: NodeJS.WritableStream;
  /** More field paths (pino syntax) whose values are replaced by "[redacted]": the config's secrets. */
  redact?: readonly string[];
  /**
   * Lines of one stretch of code written together (batchedWriter). On by
   * default for the process's own stderr/stdout; off for any other
   * destination, which gets each line as it is logged.
   */
  batch?: boolean;
}

/** The service logger: readable in a terminal, one JSON object per line when asked. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? "info";
  const destination = options.destination ?? process.stderr;
  const base = {
    level,
    redact: { paths: [...REDACT, ...(options.redact ?? [])], censor: CENSOR },
    formatters: { log: censorNested },
    base: undefined,
  };
  const batch = options.batch ?? (destination === process.stderr || destination === process.stdout);
  const write = batch ? batchedWriter(destination) : (line: string) => void destination.write(line);
  if (options.format === "json") return pino(base, jsonStream(write));
  return pino(base, prettyStream(write, options.color ?? false));
}

/**
 * `fields` with NESTED_SECRETS censored in every object field, copied only
 * when one is there. pino's own `*.access_token` path ran a redactor over
 * every field of every line, strings included: 5.5 of a webhook line's 7 µs.
 * A child logger's bindings get the top-level paths only (pino gives them no
 * formatter): bind names, never an answer.
 */
function censorNested(fields: Record<string, unknown>): Record<string, unknown> {
  let out = fields;
  for (const key in fields) {
    const value = fields[key];
    if (value === null || typeof value !== "object" || !NESTED_SECRETS.some((name) => Object.hasOwn(value, name))) continue;
    // Same prototype and descriptors: an Error keeps its message and stack for pino's err serializer.
    const censored = Object.create(Object.getPrototypeOf(value), Object.getOwnPropertyDescriptors(value)) as Record<string, unknown>;
    for (const name of NESTED_SECRETS) {
      if (Object.hasOwn(censored, name)) Object.defineProperty(censored, name, { value: CENSOR, enumerable: true, writable: true });
    }
    if (out === fields) out = { ...fields };
    out[key] = censored;
  }
  return out;
}

/**
 * Control characters pino's JSON leaves raw (DEL, the C1 set whose U+009B a
 * terminal reads as an escape, and the JavaScript line separators). They can
 * only occur inside JSON strings, so the \u escape means the same value.
 */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029]/g;
/** Every character that could end a line or drive a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** `text` with every control character written as an escape, so a logged value can neither end a line nor colour one. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => SHORT_ESCAPES[c] ?? unicodeEscape(c));
}

/** Writers holding lines not yet written, flushed when the process exits (process.exit skips the microtasks). */
const unflushed = new Set<() => void>();
let exitHooked = false;

/**
 * Lines go out together once the code now running is done (a microtask):
 * the 64 webhooks one group commit answers log 64 lines in one write
 * instead of 64, each of which could block on a slow disk or a full pipe.
 * Order is kept with anything written after an `await`; lines still held
 * when the process exits are written then (a kill -9 loses at most the
 * lines of the stretch it cut short).
 */
export function batchedWriter(destination: NodeJS.WritableStream): (line: string) => void {
  let held = "";
  const flush = () => {
    unflushed.delete(flush);
    if (held === "") return;
    const out = held;
    held = "";
    destination.write(out);
  };
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => {
      for (const pending of [...unflushed]) pending();
    });
  }
  return (line) => {
    if (held === "") {
      unflushed.add(flush);
      queueMicrotask(flush);
    }
    held += line;
  };
}

function jsonStream(write: (line: string) => void): NodeJS.WritableStream {
  return {
    write(chunk: string) {
      write(chunk.replace(RAW_IN_JSON, unicodeEscape));
      return true;
    },
  } as NodeJS.WritableStream;
}

function prettyStream(write: (line: string) => void, color: boolean): NodeJS.WritableStream {
  return {
    write(chunk: string) {
      const line = JSON.parse(chunk) as Record<string, unknown>;
      write(`${formatPretty(line, color)}\n`);
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

/** One terminal line: time, level, message, then the fields as key=value; only the level label is coloured. */
export function formatPretty(line: Record<string, unknown>, color: boolean): string {
  const { time, level, msg, ...fields } = line;
  const name = LEVEL_NAMES[Number(level)] ?? String(level);
  const stamp = new Date(Number(time)).toISOString();
  const extra = Object.entries(fields)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(" ");
  const label = color ? `${LEVEL_COLORS[name] ?? ""}${name.padEnd(5)}\x1b[0m` : name.padEnd(5);
  return `${stamp} ${label} ${escapeControls(`${String(msg ?? "")}${extra ? ` ${extra}` : ""}`)}`;
}

/** A logger that drops everything; for tests and for commands that print themselves. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
