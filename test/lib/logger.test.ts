import { execFileSync } from "node:child_process";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createLogger, type LogFormat } from "../../src/lib/logger.js";

function capture(
  format: LogFormat,
  batch = false,
): { logger: ReturnType<typeof createLogger>; text: () => Promise<string>; writes: () => number } {
  let text = "";
  let writes = 0;
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      writes++;
      done();
    },
  });
  // Batched lines go out once the code running now is done (a microtask).
  const settled = () => new Promise<string>((resolve) => setImmediate(() => resolve(text)));
  return { logger: createLogger({ format, destination, level: "debug", batch }), text: settled, writes: () => writes };
}

/** Control characters a log line must never carry raw, apart from its own final newline. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const RAW_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]/;
const FORGED = "x\n2026-01-01T00:00:00.000Z ERROR forged line\r\x1b[2K\x1b[31mred\u0085\u009b31m\u2028\u2029\x7f";

describe("log lines cannot be forged or carry terminal escapes", () => {
  it("keeps a message with newlines and escape codes on one pretty line, escaped", async () => {
    const { logger, text } = capture("pretty");
    logger.warn({ event: FORGED, "k\ney": 1 }, `ignored: event "${FORGED}"`);
    const out = await text();
    expect(out.split("\n")).toHaveLength(2); // one line and the final newline
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).toContain("\\n2026-01-01T00:00:00.000Z ERROR forged line\\r\\u001b[2K");
    expect(out).toContain("k\\ney=1");
  });

  it("escapes the same characters in JSON lines, which stay valid JSON", async () => {
    const { logger, text } = capture("json");
    logger.warn({ event: FORGED }, `ignored: ${FORGED}`);
    const out = await text();
    expect(out.trimEnd().split("\n")).toHaveLength(1);
    expect(out.trimEnd()).not.toMatch(RAW_CONTROL);
    const line = JSON.parse(out) as { msg: string; event: string };
    expect(line.event).toBe(FORGED);
    expect(line.msg).toBe(`ignored: ${FORGED}`);
  });
});

describe("lines are written together", () => {
  it("writes the lines of one stretch of code in one write, in order, and the next stretch's after them", async () => {
    const { logger, text, writes } = capture("json", true);
    for (let i = 0; i < 64; i++) logger.info({ n: i }, "scan request accepted");
    await Promise.resolve();
    logger.info({ n: 64 }, "after an await");
    const lines = (await text())
      .trimEnd()
      .split("\n")
      .map((l) => (JSON.parse(l) as { n: number }).n);
    expect(lines).toEqual(Array.from({ length: 65 }, (_, i) => i));
    expect(writes()).toBe(2);
  });

  it("writes what it still holds when the process exits at once", () => {
    const logger = pathToFileURL(new URL("../../src/lib/logger.ts", import.meta.url).pathname).href;
    const script = `import { createLogger } from ${JSON.stringify(logger)};
      createLogger({ format: "json" }).error({ code: 7 }, "the last words");
      process.exit(3);`;
    let stderr = "";
    try {
      execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      stderr = (error as { stderr: string; status: number }).stderr;
      expect((error as { status: number }).status).toBe(3);
    }
    expect(JSON.parse(stderr.trim())).toMatchObject({ code: 7, msg: "the last words" });
  });
});

describe("OAuth tokens never reach a line", () => {
  it("censors access_token and refresh_token at the top and one level down under any field, and leaves the rest as it was", async () => {
    const { logger, text } = capture("json");
    const answer = { access_token: "ya29.secret-access", refresh_token: "1//secret-refresh", expires_in: 3599 };
    const failure = Object.assign(new Error("token refresh failed"), { access_token: "ya29.in-an-error" });
    logger.info({ answer, access_token: "ya29.top", source: "drive", err: failure }, "token answer");
    const out = await text();
    expect(out).not.toMatch(/ya29|1\/\/secret/);
    const line = JSON.parse(out) as { answer: Record<string, unknown>; access_token: string; source: string; err: Record<string, unknown> };
    expect(line.answer).toEqual({ access_token: "[redacted]", refresh_token: "[redacted]", expires_in: 3599 });
    expect(line.access_token).toBe("[redacted]");
    expect(line.source).toBe("drive");
    expect(line.err).toMatchObject({ message: "token refresh failed", access_token: "[redacted]" });
    // The caller's objects are left as they were.
    expect(answer.access_token).toBe("ya29.secret-access");
  });
});
