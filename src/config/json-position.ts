/** A JSON syntax error with the 1-based line and column where parsing stopped. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly detail: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`invalid JSON at line ${line}, column ${column}: ${detail}`);
  }
}

/** JSON.parse that reports line and column instead of a character offset. */
export function parseJsonWithPosition(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = findOffset(message, text);
    const { line, column } = lineAndColumn(text, offset);
    throw new JsonSyntaxError(cleanMessage(message), line, column);
  }
}

function findOffset(message: string, text: string): number {
  const lineCol = /line (\d+) column (\d+)/.exec(message);
  if (lineCol) return offsetOf(text, Number(lineCol[1]), Number(lineCol[2]));
  const position = /position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  return text.length;
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) break;
    offset = next + 1;
  }
  return offset + column - 1;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.min(offset, text.length));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

function cleanMessage(message: string): string {
  return message
    .replace(/ in JSON at position \d+.*$/, "")
    .replace(/ \(line \d+ column \d+\)$/, "")
    .replace(/, ".*" is not valid JSON$/s, "");
}
