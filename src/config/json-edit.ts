import { isDeepStrictEqual } from "node:util";
import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, type Edit, type JSONPath } from "jsonc-parser";

/** One change to a JSON document: the value at `path` (undefined removes the key; index -1 appends to an array). */
export interface JsonChange {
  path: JSONPath;
  value: unknown;
}

/**
 * Applies `changes` to a JSON text, located through jsonc-parser's syntax
 * tree: a value is replaced where it stands, a new member goes after the
 * last one, indented like it, and every other byte of the file stays. A
 * change to a value the file already holds is no edit at all. Throws,
 * writing nothing, if the result does not read back as asked.
 */
export function editJson(text: string, changes: readonly JsonChange[]): string {
  let out = text;
  for (const change of changes) {
    if (isDeepStrictEqual(valueAt(out, change.path), plain(change.value))) continue;
    out = applyEdits(out, [editFor(out, change)]);
  }
  const appended = changes.some((c) => c.path[c.path.length - 1] === -1);
  for (const change of changes) {
    if (!appended && !isDeepStrictEqual(valueAt(out, change.path), plain(change.value))) {
      throw new Error(`editing the config file text went wrong at ${change.path.join(".")}; nothing was written`);
    }
  }
  return out;
}

/** The value at `path` in a JSON text, or undefined when there is none. */
export function valueAt(text: string, path: JSONPath): unknown {
  const root = parseTree(text);
  const node = root && path[path.length - 1] !== -1 ? findNodeAtLocation(root, path) : undefined;
  // jsonc-parser builds objects without a prototype; a JSON round trip makes them plain for comparisons.
  return node ? (JSON.parse(JSON.stringify(getNodeValue(node))) as unknown) : undefined;
}

/** The value as JSON would read it back (undefined members dropped). */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** Sets top-level string keys, changing only their values (or appending the missing ones, indented like the file). */
export function setTopLevelStrings(text: string, values: Readonly<Record<string, string>>): string {
  return editJson(
    text,
    Object.entries(values).map(([key, value]) => ({ path: [key], value })),
  );
}

function editFor(text: string, { path, value }: JsonChange): Edit {
  const root = parseTree(text);
  if (!root) throw new Error("the config file is not JSON; nothing was written");
  if (value === undefined) return modify(text, path, undefined, {})[0] ?? { offset: 0, length: 0, content: "" };
  const unit = indentUnit(text);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const node = path[path.length - 1] === -1 ? undefined : findNodeAtLocation(root, path);
  if (node) return { offset: node.offset, length: node.length, content: pretty(value, lineIndent(text, node.offset), unit, eol) };
  // The deepest container that exists takes the rest of the path as one new member.
  let depth = path.length - 1;
  let parent = findNodeAtLocation(root, path.slice(0, depth));
  while (!parent) parent = findNodeAtLocation(root, path.slice(0, --depth));
  const key = path[depth];
  const inner = path.slice(depth + 1).reduceRight<unknown>((v, k) => (typeof k === "number" ? [v] : { [k]: v }), value);
  const children = parent.children ?? [];
  const last = children[children.length - 1];
  const indent = last ? lineIndent(text, last.offset) : lineIndent(text, parent.offset) + unit;
  const label = parent.type === "object" ? `${JSON.stringify(key)}: ` : "";
  const member = `${label}${pretty(inner, indent, unit, eol)}`;
  if (last) return { offset: last.offset + last.length, length: 0, content: `,${eol}${indent}${member}` };
  return {
    offset: parent.offset + 1,
    length: parent.length - 2,
    content: `${eol}${indent}${member}${eol}${lineIndent(text, parent.offset)}`,
  };
}

/** JSON.stringify with the file's indent unit, every line after the first shifted to `base`. */
function pretty(value: unknown, base: string, unit: string, eol: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `${eol}${base}`);
}

/** The whitespace a line starts with, for the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? "";
}

/** The file's indent unit: the first indented line's leading whitespace (two spaces for a one-line file). */
function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
}
