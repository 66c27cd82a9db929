/**
 * Finds where JSON text stops being JSON, and why, by walking the grammar.
 * Used only after JSON.parse failed: V8's messages give a position for some
 * errors and none for others (`Unexpected token 'T', ..."x": True"... is not
 * valid JSON`), so the position is worked out here instead.
 */
export interface JsonFault {
  /** Index into the text of the first character that cannot be there. */
  offset: number;
  /** What the parser wanted there, e.g. "expected a value". */
  reason: string;
  /** What it found: "end of file", or the character or word at `offset`. */
  found: string;
  /** Where in the grammar it was, for hints. */
  context: "value" | "key" | "colon" | "after-member" | "after-element" | "string" | "number" | "trailing";
}

class Fault extends Error {
  constructor(readonly fault: JsonFault) {
    super(fault.reason);
  }
}

/** The first fault in `text`, or undefined when it is valid JSON. */
export function locateJsonFault(text: string): JsonFault | undefined {
  let i = 0;
  const fail = (reason: string, context: JsonFault["context"], at = i): never => {
    throw new Fault({ offset: at, reason, found: describeAt(text, at), context });
  };
  const skipSpace = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const readString = (context: JsonFault["context"]): void => {
    if (text[i] !== '"') fail(context === "key" ? "expected a double-quoted property name" : "expected a value", context);
    i++;
    for (;;) {
      if (i >= text.length) fail("unterminated string", "string");
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail("control character (tab or line break) inside a string: write \\t or \\n", "string");
      if (c === 0x5c) {
        const next = text[i + 1] ?? "";
        if (next === "u" ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !'"\\/bfnrt'.includes(next) || next === "") {
          fail('bad escape in a string (a Windows path needs doubled backslashes: "D:\\\\Media")', "string");
        }
        i += next === "u" ? 6 : 2;
        continue;
      }
      i++;
    }
    i++;
  };
  const readValue = (): void => {
    skipSpace();
    const c = text[i];
    if (c === "{") return readObject();
    if (c === "[") return readArray();
    if (c === '"') return readString("value");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
      if (!match) fail("bad number", "number");
      i += (match as RegExpExecArray)[0].length;
      return;
    }
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i) && !/[A-Za-z0-9_]/.test(text[i + word.length] ?? "")) {
        i += word.length;
        return;
      }
    }
    fail("expected a value", "value");
  };
  const readObject = (): void => {
    i++;
    skipSpace();
    if (text[i] === "}") {
      i++;
      return;
    }
    for (;;) {
      skipSpace();
      readString("key");
      skipSpace();
      if (text[i] !== ":") fail("expected ':' after the property name", "colon");
      i++;
      readValue();
      skipSpace();
      if (text[i] === "}") {
        i++;
        return;
      }
      if (text[i] !== ",") fail("expected ',' or '}' after the value", "after-member");
      i++;
    }
  };
  const readArray = (): void => {
    i++;
    skipSpace();
    if (text[i] === "]") {
      i++;
      return;
    }
    for (;;) {
      readValue();
      skipSpace();
      if (text[i] === "]") {
        i++;
        return;
      }
      if (text[i] !== ",") fail("expected ',' or ']' after the value", "after-element");
      i++;
    }
  };
  try {
    readValue();
    skipSpace();
    if (i < text.length) fail("unexpected text after the end of the JSON document", "trailing");
    return undefined;
  } catch (error) {
    if (error instanceof Fault) return error.fault;
    throw error;
  }
}

function describeAt(text: string, offset: number): string {
  if (offset >= text.length) return "end of file";
  const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(offset));
  return word ? word[0] : (text[offset] as string);
}
