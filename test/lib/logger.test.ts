import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, type LogFormat } from "../../src/lib/logger.js";

function capture(format: LogFormat): { logger: ReturnType<typeof createLogger>; text: () => string } {
  let text = "";
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { logger: createLogger({ format, destination, level: "debug" }), text: () => text };
}

/** Control characters a log line must never carry raw, apart from its own final newline. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const RAW_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]/;
const FORGED = "x\n2026-01-01T00:00:00.000Z ERROR forged line\r\x1b[2K\x1b[31mred\u0085\u009b31m\u2028\u2029\x7f";

describe("log lines cannot be forged or carry terminal escapes", () => {
  it("keeps a message with newlines and escape codes on one pretty line, escaped", () => {
    const { logger, text } = capture("pretty");
    logger.warn({ event: FORGED, "k\ney": 1 }, `ignored: event "${FORGED}"`);
    const out = text();
    expect(out.split("\n")).toHaveLength(2); // one line and the final newline
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).toContain("\\n2026-01-01T00:00:00.000Z ERROR forged line\\r\\u001b[2K");
    expect(out).toContain("k\\ney=1");
  });

  it("escapes the same characters in JSON lines, which stay valid JSON", () => {
    const { logger, text } = capture("json");
    logger.warn({ event: FORGED }, `ignored: ${FORGED}`);
    const out = text();
    expect(out.trimEnd().split("\n")).toHaveLength(1);
    expect(out.trimEnd()).not.toMatch(RAW_CONTROL);
    const line = JSON.parse(out) as { msg: string; event: string };
    expect(line.event).toBe(FORGED);
    expect(line.msg).toBe(`ignored: ${FORGED}`);
  });
});
