import { createRequire } from "node:module";
import type { ParseErrorCode } from "jsonc-parser";

// jsonc-parser is only wanted once a text fails JSON.parse, so it is required then (a CommonJS
// package, so synchronously): loaded at start it cost serve about 2 MB of idle RSS (issue 35).
const requireHere = createRequire(import.meta.url);
const jsonc = (): typeof import("jsonc-parser") => requireHere("jsonc-parser") as typeof import("jsonc-parser");

/** Where JSON text stops being JSON, and why: jsonc-parser's first error, placed on the offending character. */
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

type Container = "object" | "array";

const CONTROL_IN_STRING = "control character (tab or line break) inside a string: write \\t or \\n";

const REASONS: Record<JsonFault["context"], string> = {
  value: "expected a value",
  key: "expected a double-quoted property name",
  colon: "expected ':' after the property name",
  "after-member": "expected ',' or '}' after the value",
  "after-element": "expected ',' or ']' after the value",
  string: "bad string",
  number: "bad number",
  trailing: "unexpected text after the end of the JSON document",
};

/**
 * The first fault in `text` (strict JSON: no comments, no trailing commas),
 * or undefined when it is valid. jsonc-parser reports the error; the
 * visitor's events say where in the grammar the parser was, which the hints
 * need (a word where a value belongs, a quote where a key belongs).
 */
export function locateJsonFault(text: string): JsonFault | undefined {
  const stack: Container[] = [];
  let expecting: JsonFault["context"] = "value";
  let fault: JsonFault | undefined;
  const afterValue = (): void => {
    const parent = stack[stack.length - 1];
    expecting = parent === "object" ? "after-member" : parent === "array" ? "after-element" : "trailing";
  };
  jsonc().visit(
    text,
    {
      onObjectBegin: () => {
        stack.push("object");
        expecting = "key";
      },
      onArrayBegin: () => {
        stack.push("array");
        expecting = "value";
      },
      onObjectEnd: () => {
        stack.pop();
        afterValue();
      },
      onArrayEnd: () => {
        stack.pop();
        afterValue();
      },
      onObjectProperty: () => {
        expecting = "colon";
      },
      onLiteralValue: afterValue,
      onSeparator: (sep) => {
        expecting = sep === ":" || stack[stack.length - 1] === "array" ? "value" : "key";
      },
      onError: (code, offset, length) => {
        fault ??= faultOf(text, code, offset, length, expecting);
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return fault;
}

function faultOf(text: string, code: ParseErrorCode, offset: number, length: number, expecting: JsonFault["context"]): JsonFault {
  const token = text.slice(offset, offset + length);
  const at = (where: number, context: JsonFault["context"], reason = REASONS[context]): JsonFault => ({
    offset: where,
    reason,
    found: describeAt(text, where),
    context,
  });
  switch (jsonc().printParseErrorCode(code)) {
    case "InvalidEscapeCharacter":
      return at(
        offset + badEscapeIndex(token),
        "string",
        'bad escape in a string (a Windows path needs doubled backslashes: "D:\\\\Media")',
      );
    case "InvalidCharacter":
      return at(offset + controlIndex(token), "string", CONTROL_IN_STRING);
    case "UnexpectedEndOfString":
      // jsonc-parser ends a string at a line break; the break itself is the fault there.
      if (offset + length < text.length) return at(offset + length, "string", CONTROL_IN_STRING);
      return at(text.length, "string", "unterminated string");
    case "InvalidNumberFormat":
    case "UnexpectedEndOfNumber":
      return at(offset, "number");
    case "ColonExpected":
      return at(offset, "colon");
    case "EndOfFileExpected":
      return at(offset, "trailing");
    case "CommaExpected":
      return at(offset, stackless(expecting));
    default:
      return at(offset, expecting);
  }
}

/** A missing comma is reported after a member or an element, whichever the parser was in. */
function stackless(expecting: JsonFault["context"]): JsonFault["context"] {
  return expecting === "after-element" ? "after-element" : "after-member";
}

function badEscapeIndex(token: string): number {
  const match = /\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})/.exec(token);
  return match ? match.index : 0;
}

function controlIndex(token: string): number {
  const index = token
    .slice(1)
    .split("")
    .findIndex((c) => c.charCodeAt(0) < 0x20);
  return index < 0 ? 0 : index + 1;
}

function describeAt(text: string, offset: number): string {
  if (offset >= text.length) return "end of file";
  const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(offset));
  return word ? word[0] : (text[offset] as string);
}
