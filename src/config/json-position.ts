import { locateJsonFault, type JsonFault } from "./json-locate.js";

/** A JSON syntax error with the 1-based line and column of the offending character, on one line. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly detail: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`invalid JSON at line ${line}, column ${column}: ${detail}`);
  }
}

/** JSON.parse that reports line and column, with a hint for what plex_autoscan users often type. */
export function parseJsonWithPosition(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const fault = locateJsonFault(text);
    if (!fault) throw error;
    const { line, column } = lineAndColumn(text, fault.offset);
    const found = fault.found === "end of file" ? "found the end of the file" : `found ${JSON.stringify(fault.found)}`;
    const hint = hintFor(fault, text);
    const near = excerpt(text, fault.offset);
    throw new JsonSyntaxError(`${fault.reason}, ${found}${hint ? ` (${hint})` : ""}${near ? `; near ${near}` : ""}`, line, column);
  }
}

const PYTHON_WORDS: Record<string, string> = { True: "true", False: "false", None: "null" };

function hintFor(fault: JsonFault, text: string): string | undefined {
  const { found, context } = fault;
  if (fault.offset >= text.length) return text.trim() === "" ? "the file is empty" : undefined;
  const python = PYTHON_WORDS[found];
  if (python && context === "value") return `${found} is Python; JSON writes ${python} in lower case`;
  if (found === "'") return "JSON needs double quotes around strings and keys, not single quotes";
  if (found === "/" || found === "#") return 'JSON has no comments; scanarr ignores keys that start with "_", such as "_comment"';
  if ((found === "}" && context === "key") || (found === "]" && context === "value" && previousSignificant(text, fault.offset) === ",")) {
    return "JSON allows no comma before a closing bracket";
  }
  if (found === '"' && (context === "after-member" || context === "after-element")) return "a comma is missing before it";
  if (context === "value" && /^[A-Za-z_]/.test(found)) return "text values need double quotes";
  return undefined;
}

function previousSignificant(text: string, offset: number): string | undefined {
  for (let i = offset - 1; i >= 0; i--) {
    const c = text[i] as string;
    if (!" \t\r\n".includes(c)) return c;
  }
  return undefined;
}

/** The offending line, trimmed and cut short, so the message stays on one line. */
function excerpt(text: string, offset: number): string | undefined {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const end = text.indexOf("\n", offset);
  const line = text
    .slice(start, end < 0 ? undefined : end)
    .replace(/\s+/g, " ")
    .trim();
  if (line === "") return undefined;
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/** 1-based line and column; the column counts characters (code points), as a person counts them. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.min(offset, text.length));
  const lines = before.split("\n");
  return { line: lines.length, column: [...(lines[lines.length - 1] ?? "")].length + 1 };
}
