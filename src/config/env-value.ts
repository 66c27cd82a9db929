import { locateJsonFault } from "./json-locate.js";

/** How the text of a variable becomes a config value. */
export type EnvKind = "boolean" | "integer" | "number" | "string" | "command" | "json";

const TRUE = new Set(["true", "1", "yes"]);
const FALSE = new Set(["false", "0", "no"]);
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The value `text` stands for as a key of `kind`, or why it cannot be one.
 * `secret` texts are never quoted in the reason (nor is JSON, which may hold
 * a secret of an entry).
 */
export function valueOfText(kind: EnvKind, text: string, secret: boolean): { value: unknown } | { problem: string } {
  const got = secret ? "" : ` (got ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)})`;
  const trimmed = text.trim();
  switch (kind) {
    case "boolean": {
      const word = trimmed.toLowerCase();
      if (TRUE.has(word)) return { value: true };
      if (FALSE.has(word)) return { value: false };
      return { problem: `must be true or false (also 1/0, yes/no)${got}` };
    }
    case "integer":
      return /^[+-]?\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed))
        ? { value: Number(trimmed) }
        : { problem: `must be a whole number${got}` };
    case "number":
      return NUMBER.test(trimmed) && Number.isFinite(Number(trimmed)) ? { value: Number(trimmed) } : { problem: `must be a number${got}` };
    case "command":
      // An argv array is written as JSON; anything else is the string for /bin/sh -c.
      return trimmed.startsWith("[") ? parseJson(trimmed) : { value: text };
    case "json":
      return parseJson(text);
    default:
      return { value: text };
  }
}

/** JSON.parse whose error says where, never what: V8's own message quotes the text. */
function parseJson(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    const fault = locateJsonFault(text);
    const where = fault ? `: ${fault.reason} at character ${fault.offset + 1}` : "";
    return { problem: `must be JSON (a list or object is written whole, e.g. '["/mnt/a"]')${where}` };
  }
}
