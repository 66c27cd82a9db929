/**
 * autoscan and autopulse write their rewrites in Go's (RE2) and Rust's
 * regex syntax; scanarr runs JavaScript RegExps with the `u` flag. This reads
 * a pattern written in either and gives the JavaScript source, translating
 * what has a JavaScript equal and refusing, with the reason, what has none
 * (docs/configuration.md, "Regular-expression rewrites").
 */
export class PatternError extends Error {
  override name = "PatternError";
}

export interface TranslatedPattern {
  source: string;
  flags: string;
}

/** Characters JavaScript's `u` mode lets a backslash escape outside a class. */
const SYNTAX = new Set("^$\\.*+?()[]{}|/");

const POSIX_CLASSES: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

interface Group {
  /** The group holds an unbounded repetition (`*`, `+`, `{n,}`). */
  repeats: boolean;
}

/** The JavaScript source and flags of a Go, Rust or JavaScript pattern; a PatternError says what cannot be carried over. */
export function translatePattern(pattern: string): TranslatedPattern {
  let flags = "u";
  let i = 0;
  const leading = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (leading) {
    for (const flag of leading[1] as string) {
      if (flag === "i" || flag === "m" || flag === "s") flags += flags.includes(flag) ? "" : flag;
      else throw new PatternError(`the flag (?${flag}) has no JavaScript equal; only i, m and s can be set`);
    }
    i = leading[0].length;
  }
  let out = "";
  const groups: Group[] = [{ repeats: false }];
  let lastGroup: Group | undefined;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    const top = groups[groups.length - 1] as Group;
    if (c === "\\") {
      const [text, used] = translateEscape(pattern, i, false);
      out += text;
      i += used;
      lastGroup = undefined;
      continue;
    }
    if (c === "[") {
      const [text, used] = translateClass(pattern, i);
      out += text;
      i += used;
      lastGroup = undefined;
      continue;
    }
    if (c === "(") {
      const [text, used] = translateGroupOpen(pattern, i);
      out += text;
      i += used;
      groups.push({ repeats: false });
      lastGroup = undefined;
      continue;
    }
    if (c === ")") {
      const closed = groups.pop();
      if (!closed || groups.length === 0) throw new PatternError("has a ) without its (");
      (groups[groups.length - 1] as Group).repeats ||= closed.repeats;
      out += c;
      i++;
      lastGroup = closed;
      continue;
    }
    const unbounded = c === "*" || c === "+" || (c === "{" && /^\{\d+,\}/.test(pattern.slice(i)));
    if (unbounded) {
      if (lastGroup?.repeats)
        throw new PatternError(
          "repeats a group that itself holds an unbounded repetition, like (a+)+; that can take exponential time, so write it without the outer repetition",
        );
      top.repeats = true;
    }
    out += c;
    i++;
    // A `?` after a quantifier (lazy) keeps the group that was repeated in view; anything else ends it.
    if (!(c === "?" || unbounded || c === "}")) lastGroup = undefined;
  }
  if (groups.length !== 1) throw new PatternError("has a ( without its )");
  return { source: out, flags };
}

function translateGroupOpen(pattern: string, i: number): [string, number] {
  const rest = pattern.slice(i);
  const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
  if (named) return [`(?<${named[1]}>`, named[0].length];
  const plain = /^\(\?(?::|=|!|<=|<!)/.exec(rest);
  if (plain) return [plain[0], plain[0].length];
  if (rest.startsWith("(?")) {
    throw new PatternError(
      `has ${JSON.stringify(rest.slice(0, 8))}: flags can be set only at the very start of the pattern, for the whole of it, like (?i)^/tv/`,
    );
  }
  return ["(", 1];
}

/** One escape at `i`; returns its JavaScript text and how many characters it used. */
function translateEscape(pattern: string, i: number, inClass: boolean): [string, number] {
  const next = pattern[i + 1];
  if (next === undefined) throw new PatternError("ends with a lone backslash");
  if (next === "A" && !inClass) return ["(?<![\\s\\S])", 2];
  if (next === "z" && !inClass) return ["(?![\\s\\S])", 2];
  if (next === "C") throw new PatternError("uses \\C (any byte), which has no JavaScript equal");
  if (next === "Q") {
    const end = pattern.indexOf("\\E", i + 2);
    const literal = pattern.slice(i + 2, end === -1 ? undefined : end);
    return [literal.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&"), (end === -1 ? pattern.length : end + 2) - i];
  }
  if (next === "x" && pattern[i + 2] === "{") {
    const close = pattern.indexOf("}", i + 3);
    if (close === -1) throw new PatternError("has a \\x{ without its }");
    return [`\\u{${pattern.slice(i + 3, close)}}`, close + 1 - i];
  }
  if (next === "p" || next === "P") {
    if (pattern[i + 2] === "{") {
      const close = pattern.indexOf("}", i + 3);
      if (close === -1) throw new PatternError(`has a \\${next}{ without its }`);
      const name = pattern.slice(i + 3, close);
      // Go names scripts bare (\p{Greek}); JavaScript wants Script= for them. One or two letters are categories.
      const js = /^[A-Z][a-z]?$/.test(name) || name.includes("=") ? name : `Script=${name}`;
      return [`\\${next}{${js}}`, close + 1 - i];
    }
    const letter = pattern[i + 2];
    if (letter === undefined) throw new PatternError(`ends with \\${next}`);
    return [`\\${next}{${letter}}`, 3];
  }
  if (/[A-Za-z0-9]/.test(next)) return [`\\${next}`, 2];
  // Go lets a backslash escape any punctuation; JavaScript's u mode only its own syntax characters.
  if (SYNTAX.has(next) || (inClass && next === "-")) return [`\\${next}`, 2];
  return [next, 2];
}

/** A bracketed class at `i`: `]` first is literal (as in Go), [:name:] becomes its ASCII ranges. */
function translateClass(pattern: string, i: number): [string, number] {
  let j = i + 1;
  let out = "[";
  if (pattern[j] === "^") {
    out += "^";
    j++;
  }
  if (pattern[j] === "]") {
    out += "\\]";
    j++;
  }
  while (j < pattern.length && pattern[j] !== "]") {
    const c = pattern[j] as string;
    if (c === "\\") {
      const [text, used] = translateEscape(pattern, j, true);
      out += text;
      j += used;
      continue;
    }
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(j));
    if (posix) {
      const ranges = POSIX_CLASSES[posix[2] as string];
      if (ranges === undefined) throw new PatternError(`uses the unknown class [:${posix[2]}:]`);
      if (posix[1]) throw new PatternError(`uses [:^${posix[2]}:], which has no JavaScript equal inside a class; use [^${ranges}]`);
      out += ranges;
      j += posix[0].length;
      continue;
    }
    // In u mode a [ or a lone { or } inside a class is fine, but ( ) | / need no escape either.
    out += c === "[" ? "\\[" : c;
    j++;
  }
  if (j >= pattern.length) throw new PatternError("has a [ without its ]");
  return [`${out}]`, j + 1 - i];
}

/** A piece of a replacement: text, or the group a `$1`, `${1}`, `$name` or `${name}` names. */
export type TemplatePart = string | { group: number | string };

/**
 * Go's (and Rust's) replacement template: `$1`, `${1}`, `$name`, `${name}`,
 * and `$$` for a dollar sign. As in Go, `$name` takes the longest run of
 * letters, digits and underscores (`$1x` names the group "1x"; write
 * `${1}x`), and a `$` that starts no reference stays a `$`.
 */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = "";
  let i = 0;
  while (i < template.length) {
    const c = template[i] as string;
    if (c !== "$") {
      text += c;
      i++;
      continue;
    }
    if (template[i + 1] === "$") {
      text += "$";
      i += 2;
      continue;
    }
    const ref = /^\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/.exec(template.slice(i));
    if (!ref) {
      text += "$";
      i++;
      continue;
    }
    const name = (ref[1] ?? ref[2]) as string;
    if (text !== "") parts.push(text);
    text = "";
    parts.push({ group: /^\d+$/.test(name) ? Number(name) : name });
    i += ref[0].length;
  }
  if (text !== "") parts.push(text);
  return parts;
}

/** The RegExp of a config pattern; a PatternError starts with `at` (its dotted path) and says what is wrong. */
export function compilePattern(pattern: string, at: string, extraFlags = ""): RegExp {
  try {
    const { source, flags } = translatePattern(pattern);
    return new RegExp(source, flags + extraFlags);
  } catch (error) {
    const why = error instanceof PatternError ? error.message : `is not a regular expression: ${(error as Error).message}`;
    throw new PatternError(`${at}: ${JSON.stringify(pattern)} ${why}`);
  }
}
