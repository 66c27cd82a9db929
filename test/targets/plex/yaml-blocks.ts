/**
 * Just enough YAML for the OpenAPI contract test: walks the indentation of
 * block mappings and lists, without adding a YAML package. Not a parser;
 * flow collections and multi-document files are out of scope.
 */
export type Block = string[];

const indentOf = (line: string): number => line.length - line.trimStart().length;
const meaningful = (line: string): boolean => line.trim() !== "" && !line.trimStart().startsWith("#");
const unquote = (key: string): string => key.replace(/^(['"])(.*)\1$/, "$2");

/** The lines nested under `key` at the shallowest level of `block`; undefined when absent. */
export function child(block: Block, key: string): Block | undefined {
  const lines = block.filter(meaningful);
  if (lines.length === 0) return undefined;
  const base = Math.min(...lines.map(indentOf));
  const start = lines.findIndex((line) => indentOf(line) === base && keyOf(line) === key);
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && indentOf(line) <= base);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Follows a path of keys; undefined as soon as one is missing. */
export function at(block: Block, ...keys: string[]): Block | undefined {
  let current: Block | undefined = block;
  for (const key of keys) current = current && child(current, key);
  return current;
}

/** The scalar written on the same line as `key` (`type: string` gives "string"). */
export function scalar(block: Block, key: string): string | undefined {
  const lines = block.filter(meaningful);
  const base = Math.min(...lines.map(indentOf));
  const line = lines.find((l) => indentOf(l) === base && keyOf(l) === key);
  const value = line?.slice(line.indexOf(":") + 1).trim();
  return value ? unquote(value) : undefined;
}

/** The items of a block list, each re-indented as a mapping (`- name: x` becomes `  name: x`). */
export function items(block: Block): Block[] {
  const lines = block.filter(meaningful);
  const base = Math.min(...lines.map(indentOf));
  const result: Block[] = [];
  for (const line of lines) {
    if (indentOf(line) === base && line.trimStart().startsWith("- ")) {
      result.push([line.replace("- ", "  ")]);
    } else {
      result.at(-1)?.push(line);
    }
  }
  return result;
}

function keyOf(line: string): string | undefined {
  const match = /^\s*(?:- )?((?:'[^']*'|"[^"]*"|[^:'"]+)):(?:\s|$)/.exec(line);
  return match?.[1] === undefined ? undefined : unquote(match[1].trim());
}
