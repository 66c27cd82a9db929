import { formatPath, isPrefixOf, parsePath, PathSyntaxError, type ParsedPath } from "./parse.js";

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
 * Builds the mapper for SERVER_PATH_MAPPINGS (or a target's PATH_MAPPINGS,
 * named by `label` in messages). Every key maps to itself too, so
 * a path already in media-server form passes unchanged; among all matching
 * prefixes the longest (most components) wins, and only that prefix is
 * replaced.
 */
export function createPathMapper(mappings: Record<string, string[]>, label = "SERVER_PATH_MAPPINGS"): PathMapper {
  const rules: Rule[] = [];
  for (const [key, alternatives] of Object.entries(mappings)) {
    const to = parseOrThrow(key, `${label} key "${key}"`);
    rules.push({ from: to, to });
    for (const alt of alternatives) rules.push({ from: parseOrThrow(alt, `${label}["${key}"] entry "${alt}"`), to });
  }
  return {
    toServerPath(input: string): string {
      const parsed = parseOrThrow(input, "path");
      const rule = findLongestRule(rules, parsed);
      if (!rule) {
        if (parsed.style === "relative") {
          throw new PathError(`path ${JSON.stringify(input)} is relative and matches no cloud-drive prefix in SERVER_PATH_MAPPINGS`);
        }
        return formatPath(parsed);
      }
      const rest = parsed.parts.slice(rule.from.parts.length);
      return formatPath({ ...rule.to, parts: [...rule.to.parts, ...rest], trailingSlash: parsed.trailingSlash });
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

function parseOrThrow(raw: string, what: string): ParsedPath {
  try {
    return parsePath(raw);
  } catch (error) {
    if (error instanceof PathSyntaxError) {
      throw new PathError(`${what === "path" ? `path ${JSON.stringify(raw.replace(/\0/g, "\\0"))}` : what} ${error.message}`);
    }
    throw error;
  }
}
