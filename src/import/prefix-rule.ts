import type { Rule } from "./model.js";

export type PrefixResult = { from: string; to: string; assumedAnchor: boolean } | { problem: string };

const TAIL_CAPTURE = /\((?:\.\*|\.\+)\)\$?$/;

/**
 * Reads a regex rewrite rule as a path prefix swap when it is one: a literal
 * path (escapes allowed, an unescaped dot taken literally) optionally
 * anchored with `^`, optionally ending in `(.*)` with `$1` ending the
 * replacement. Go's ReplaceAllString replaces only the matched part, so
 * `^/tv/` → `/mnt/tv/` already keeps the rest of the path.
 */
export function toPrefix(rule: Rule): PrefixResult {
  let pattern = rule.from;
  const anchored = pattern.startsWith("^");
  if (anchored) pattern = pattern.slice(1);
  const capture = TAIL_CAPTURE.exec(pattern);
  if (capture) pattern = pattern.slice(0, -capture[0].length);
  const from = unescapeLiteral(pattern);
  if (from === undefined) return { problem: `from ${JSON.stringify(rule.from)} is a regular expression, not a path prefix` };
  let to = rule.to;
  if (capture) {
    const ref = /(?:\$1|\$\{1\})$/.exec(to);
    if (!ref)
      return {
        problem: `from ${JSON.stringify(rule.from)} captures the rest of the path but to ${JSON.stringify(rule.to)} does not end with $1`,
      };
    to = to.slice(0, -ref[0].length);
  }
  if (to.includes("$")) return { problem: `to ${JSON.stringify(rule.to)} uses capture groups beyond a plain prefix` };
  if (!isAbsolute(from) || !isAbsolute(to))
    return { problem: `${JSON.stringify(rule.from)} → ${JSON.stringify(rule.to)} is not between two absolute paths` };
  return { from, to, assumedAnchor: !anchored };
}

function unescapeLiteral(pattern: string): string | undefined {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "\\") {
      const next = pattern[i + 1];
      // \d, \w, \s, \b… are classes, not characters.
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return undefined;
      out += next;
      i++;
    } else if (c === ".") out += c;
    else if (/[\^$*+?()[\]{}|]/.test(c)) return undefined;
    else out += c;
  }
  return out;
}

function isAbsolute(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}
