import type { RewriteHit } from "../domain.js";
import { escapeControls } from "../lib/logger.js";
import type { Rewriter } from "./rewrite.js";
import { formatPath, isAbsolutePath, isPrefixOf, MAX_PATH_BYTES, parsePath, PathSyntaxError, type ParsedPath } from "./parse.js";

/** A path that cannot be scanned; the message says why and names the path. */
export class PathError extends Error {
  override name = "PathError";
}

/** Rewrites incoming paths to the media server's own path form. */
export interface PathMapper {
  /** The media-server form of `input`, or a PathError. */
  toServerPath(input: string): string;
  /** The same, saying which SERVER_PATH_MAPPINGS entry rewrote it (for `scanarr map` and debug logs). */
  explain(input: string): MappedPath;
}

/** A path after mapping, with the entry that matched; no prefix and key when none did. */
export interface MappedPath {
  serverPath: string;
  /** The matching prefix as written in the config (a list entry, or the key itself). */
  prefix?: string;
  /** The SERVER_PATH_MAPPINGS key it was rewritten to. */
  key?: string;
  /** The regular-expression rewrite that ran before the prefix mappings, when one matched. */
  rewrite?: RewriteHit;
}

interface Rule {
  from: ParsedPath;
  to: ParsedPath;
  fromText: string;
  keyText: string;
}

/**
 * Builds the mapper for SERVER_PATH_MAPPINGS (or a target's PATH_MAPPINGS,
 * named by `label` in messages). Every key maps to itself too, so
 * a path already in media-server form passes unchanged; among all matching
 * prefixes the longest (most components) wins, and only that prefix is
 * replaced. `rewriter` (SERVER_PATH_REWRITES, a source's or a target's
 * REWRITES) runs first, on the path as it came; the prefix mappings then
 * take its result.
 */
export function createPathMapper(mappings: Record<string, string[]>, label = "SERVER_PATH_MAPPINGS", rewriter?: Rewriter): PathMapper {
  const rules = buildRules(mappings, label, true);
  const mapParsed = (input: string, parsed: ParsedPath): MappedPath => {
    const rule = findLongestRule(rules, parsed);
    if (!rule) {
      if (parsed.style === "relative") {
        throw new PathError(`path ${quotePath(input)} is relative and matches no cloud-drive prefix in ${label}`);
      }
      if (!isAbsolutePath(parsed)) {
        throw new PathError(`path ${quotePath(input)} is a Windows path without a drive letter and matches no prefix in ${label}`);
      }
      return { serverPath: formatPath(parsed) };
    }
    return { serverPath: applyRule(rule, parsed, input), prefix: rule.fromText, key: rule.keyText };
  };
  const explain = (asked: string): MappedPath => {
    const rewritten = rewriter?.apply(asked);
    if (!rewritten) return mapParsed(asked, parseOrThrow(asked, "path"));
    const what = () => `path ${quotePath(asked)}, rewritten by ${rewritten.hit.rule} to ${quotePath(rewritten.path)},`;
    const mapped = mapParsed(rewritten.path, parseOrThrow(rewritten.path, what));
    mapped.rewrite = rewritten.hit;
    return mapped;
  };
  return { explain, toServerPath: (input) => explain(input).serverPath };
}

/** A `{ to: [from, ...] }` table applied by longest whole-component prefix; no match gives undefined. */
export interface PrefixMapper {
  map(input: string): string | undefined;
}

/**
 * The same matching as SERVER_PATH_MAPPINGS for the other tables of that shape
 * (SERVER_FILE_EXIST_PATH_MAPPINGS, FILE_EXISTS_TO_REMOTE_MAPPINGS), where a
 * key does not map to itself and the caller decides what no match means.
 * `table` names the config key in error messages.
 */
export function createPrefixMapper(mappings: Record<string, string[]>, table: string): PrefixMapper {
  const rules = buildRules(mappings, table, false);
  return {
    map(input: string): string | undefined {
      const parsed = parseOrThrow(input, "path");
      const rule = findLongestRule(rules, parsed);
      return rule ? applyRule(rule, parsed, input) : undefined;
    },
  };
}

function buildRules(mappings: Record<string, string[]>, table: string, keysMapToThemselves: boolean): Rule[] {
  const rules: Rule[] = [];
  for (const [key, alternatives] of Object.entries(mappings)) {
    const to = parseOrThrow(key, `${table} key "${key}"`);
    if (keysMapToThemselves) rules.push({ from: to, to, fromText: key, keyText: key });
    for (const alt of alternatives)
      rules.push({ from: parseOrThrow(alt, `${table}["${key}"] entry "${alt}"`), to, fromText: alt, keyText: key });
  }
  return rules;
}

function applyRule(rule: Rule, parsed: ParsedPath, input: string): string {
  const rest = parsed.parts.slice(rule.from.parts.length);
  const mapped = formatPath({ ...rule.to, parts: [...rule.to.parts, ...rest], trailingSlash: parsed.trailingSlash });
  // Read the result anew: a POSIX name `Show\..\x` mapped to Windows holds a '..', and a longer prefix may pass the length limit.
  if (rule.to.style === parsed.style && mapped.length * 3 <= MAX_PATH_BYTES) return mapped;
  return formatPath(parseOrThrow(mapped, () => `path ${quotePath(input)} maps to ${quotePath(mapped)}, which`));
}

function findLongestRule(rules: Rule[], path: ParsedPath): Rule | undefined {
  let best: Rule | undefined;
  for (const rule of rules) {
    if (!isPrefixOf(rule.from, path)) continue;
    if (!best || rule.from.parts.length > best.from.parts.length) best = rule;
  }
  return best;
}

/** `what` names the path in the message; a function when building the name costs more than parsing. */
function parseOrThrow(raw: string, what: string | (() => string)): ParsedPath {
  try {
    return parsePath(raw);
  } catch (error) {
    if (!(error instanceof PathSyntaxError)) throw error;
    const name = typeof what === "function" ? what() : what === "path" ? `path ${quotePath(raw)}` : what;
    throw new PathError(`${name} ${error.message}`);
  }
}

const QUOTE_LIMIT = 200;

/**
 * A path for a message: quoted, NUL visible, every control character written
 * as an escape (JSON's for C0, `\u…` for DEL and C1, which JSON leaves raw),
 * and cut short so a huge path cannot flood an answer or a log.
 */
export function quotePath(raw: string): string {
  const shown = raw.length > QUOTE_LIMIT ? `${raw.slice(0, QUOTE_LIMIT)}…` : raw;
  return escapeControls(JSON.stringify(shown.replace(/\0/g, "\\0")));
}
