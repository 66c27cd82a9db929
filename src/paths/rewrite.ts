import type { RewriteHit } from "../domain.js";
import { compilePattern, parseTemplate, PatternError, type TemplatePart } from "./go-regexp.js";

export { PatternError } from "./go-regexp.js";

/** One rewrite as the config writes it. */
export interface RewriteRule {
  FROM: string;
  TO: string;
}

/** A list of rules and its dotted path in the config (`SOURCES.sonarr.REWRITES`). */
export interface RewriteList {
  rules: readonly RewriteRule[];
  at: string;
}

/** Applies the first rule whose pattern matches, to every match in the path (Go's ReplaceAllString). */
export interface Rewriter {
  /** The rewritten path and the rule that did it; undefined when no rule matches. */
  apply(path: string): { path: string; hit: RewriteHit } | undefined;
}

interface Compiled {
  test: RegExp;
  all: RegExp;
  replace: string | ((match: string, ...rest: unknown[]) => string);
  hit: Omit<RewriteHit, "result">;
}

/**
 * Compiles the lists in order into one first-match rewriter (a source's own
 * rules before SERVER_PATH_REWRITES, as autoscan put a drive's rules before
 * the trigger's); undefined when there is no rule at all, so a config
 * without rewrites pays nothing. Throws a PatternError naming the rule's
 * dotted path when a pattern or a template cannot be used.
 */
export function createRewriter(lists: readonly RewriteList[]): Rewriter | undefined {
  const compiled = lists.flatMap((list) => list.rules.map((rule, i) => compileRule(rule, `${list.at}[${i}]`)));
  if (compiled.length === 0) return undefined;
  return {
    apply(path) {
      for (const rule of compiled) {
        if (!rule.test.test(path)) continue;
        // A function replacer is called per match; a string one has every `$` doubled, so JavaScript reads none of it.
        const result = path.replace(rule.all, rule.replace as string);
        return { path: result, hit: { ...rule.hit, result } };
      }
      return undefined;
    },
  };
}

/** Every problem of the lists' rules, one line each with its dotted path (for the config check). */
export function rewriteProblems(lists: readonly RewriteList[]): string[] {
  return lists.flatMap((list) =>
    list.rules.flatMap((rule, i) => {
      try {
        compileRule(rule, `${list.at}[${i}]`);
        return [];
      } catch (error) {
        if (error instanceof PatternError) return [error.message];
        throw error;
      }
    }),
  );
}

function compileRule(rule: RewriteRule, at: string): Compiled {
  const test = compilePattern(rule.FROM, `${at}.FROM`);
  const all = compilePattern(rule.FROM, `${at}.FROM`, "g");
  const parts = parseTemplate(rule.TO);
  // An alternative that matches the empty string shows every group of the pattern, numbered and named.
  const shape = new RegExp(`${test.source}|`, test.flags).exec("");
  const names = new Set(Object.keys(shape?.groups ?? {}));
  const count = shape?.length ?? 1;
  for (const part of parts) {
    if (typeof part === "string") continue;
    const known = typeof part.group === "number" ? part.group < count : names.has(part.group);
    if (!known) {
      const shown = typeof part.group === "number" ? `group ${part.group}` : `a group named ${JSON.stringify(part.group)}`;
      throw new PatternError(
        `${at}.TO: ${JSON.stringify(rule.TO)} refers to ${shown}, which FROM does not have (write \${1}x, not $1x, for group 1 followed by x)`,
      );
    }
  }
  return { test, all, replace: replacerOf(parts), hit: { rule: at, from: rule.FROM, to: rule.TO } };
}

function replacerOf(parts: TemplatePart[]): Compiled["replace"] {
  if (parts.every((p) => typeof p === "string")) return parts.join("").replace(/\$/g, "$$$$");
  return (match, ...rest) => {
    // rest: the groups, the offset, the whole string, and the named groups when the pattern has any.
    const last = rest[rest.length - 1];
    const named = typeof last === "object" && last !== null ? (last as Record<string, string | undefined>) : undefined;
    const groups = rest.slice(0, named ? -3 : -2) as Array<string | undefined>;
    let out = "";
    for (const part of parts) {
      if (typeof part === "string") out += part;
      else if (part.group === 0) out += match;
      else if (typeof part.group === "number") out += groups[part.group - 1] ?? "";
      else out += named?.[part.group] ?? "";
    }
    return out;
  };
}
