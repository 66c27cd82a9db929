import { formatPath, isAbsolutePath, isPrefixOf, MAX_PATH_BYTES, parsePath, PathSyntaxError, type ParsedPath } from "./parse.js";

/** A path that cannot be scanned; the message says why and names the path. */
export class PathError extends Error {
  override name = "PathError";
}

/** Rewrites incoming paths to the media server's own path form. */
export interface PathMapper {
  /** The media-server form of `input`, or a PathError. */
  toServerPath(input: string): string;
}

interface Rule {
  from: ParsedPath;
  to: ParsedPath;
}

/**
 * Builds the mapper for SERVER_PATH_MAPPINGS. Every key maps to itself too, so
 * a path already in media-server form passes unchanged; among all matching
 * prefixes the longest (most components) wins, and only that prefix is
 * replaced.
 */
export function createPathMapper(mappings: Record<string, string[]>): PathMapper {
  const rules: Rule[] = [];
  for (const [key, alternatives] of Object.entries(mappings)) {
    const to = parseOrThrow(key, `SERVER_PATH_MAPPINGS key "${key}"`);
    rules.push({ from: to, to });
    for (const alt of alternatives) rules.push({ from: parseOrThrow(alt, `SERVER_PATH_MAPPINGS["${key}"] entry "${alt}"`), to });
  }
  return {
    toServerPath(input: string): string {
      const parsed = parseOrThrow(input, "path");
      const rule = findLongestRule(rules, parsed);
      if (!rule) {
        if (parsed.style === "relative") {
          throw new PathError(`path ${quotePath(input)} is relative and matches no cloud-drive prefix in SERVER_PATH_MAPPINGS`);
        }
        if (!isAbsolutePath(parsed)) {
          throw new PathError(
            `path ${quotePath(input)} is a Windows path without a drive letter and matches no prefix in SERVER_PATH_MAPPINGS`,
          );
        }
        return formatPath(parsed);
      }
      const rest = parsed.parts.slice(rule.from.parts.length);
      const mapped = formatPath({ ...rule.to, parts: [...rule.to.parts, ...rest], trailingSlash: parsed.trailingSlash });
      // Read the result anew: a POSIX name `Show\..\x` mapped to Windows holds a '..', and a longer prefix may pass the length limit.
      if (rule.to.style === parsed.style && mapped.length * 3 <= MAX_PATH_BYTES) return mapped;
      return formatPath(parseOrThrow(mapped, () => `path ${quotePath(input)} maps to ${quotePath(mapped)}, which`));
    },
  };
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

/** A path for a message: quoted, NUL visible, and cut short so a huge path cannot flood an answer or a log. */
export function quotePath(raw: string): string {
  const shown = raw.length > QUOTE_LIMIT ? `${raw.slice(0, QUOTE_LIMIT)}…` : raw;
  return JSON.stringify(shown.replace(/\0/g, "\\0"));
}
