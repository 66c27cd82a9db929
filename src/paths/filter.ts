import { compilePattern as compile } from "./go-regexp.js";

/** Why a filter drops a path: the EXCLUDE entry that matched, or the INCLUDE list none of whose entries did. */
export type FilterVerdict = { rule: string; pattern: string } | { rule: string; noInclude: true };

/** A source's INCLUDE and EXCLUDE lists (regular expressions, Go syntax translated as for rewrites). */
export type PathFilter = (path: string) => FilterVerdict | undefined;

/**
 * autoscan's filter: an EXCLUDE match drops the path; otherwise, when there
 * are INCLUDE patterns, one of them must match. Undefined when both lists are
 * empty. `at` is the source's dotted path; throws a PatternError naming the
 * entry that cannot be compiled.
 */
export function createPathFilter(include: readonly string[], exclude: readonly string[], at: string): PathFilter | undefined {
  if (include.length === 0 && exclude.length === 0) return undefined;
  const excludes = exclude.map((p, i) => ({ re: compile(p, `${at}.EXCLUDE[${i}]`), rule: `${at}.EXCLUDE[${i}]`, pattern: p }));
  const includes = include.map((p, i) => compile(p, `${at}.INCLUDE[${i}]`));
  return (path) => {
    for (const e of excludes) if (e.re.test(path)) return { rule: e.rule, pattern: e.pattern };
    if (includes.length > 0 && !includes.some((re) => re.test(path))) return { rule: `${at}.INCLUDE`, noInclude: true };
    return undefined;
  };
}

/** How a verdict reads in an answer, a log line and `scanarr map`. */
export function describeVerdict(verdict: FilterVerdict): string {
  return "pattern" in verdict ? `excluded by ${verdict.rule} ${JSON.stringify(verdict.pattern)}` : `matches no pattern of ${verdict.rule}`;
}
