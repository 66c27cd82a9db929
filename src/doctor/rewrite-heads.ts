import type { Config, RewriteEntry } from "../config/types.js";
import { childPath } from "../config/validate.js";
import { parsePath } from "../paths/parse.js";

/**
 * The folder every result of a rewrite starts with: its TO up to the first
 * `$` reference, cut at the last separator (`/movies/${title} (${year})/`
 * gives `/movies/`), for SERVER_PATH_REWRITES and each source's REWRITES.
 * A rule whose TO starts with a reference, or is no absolute path, says
 * nothing the doctor can check.
 */
export function rewriteHeads(config: Config): Array<{ rule: string; head: string }> {
  const lists: Array<[string, RewriteEntry[]]> = [["SERVER_PATH_REWRITES", config.SERVER_PATH_REWRITES]];
  for (const [name, source] of Object.entries(config.SOURCES))
    lists.push([`${childPath("SOURCES", name)}.REWRITES`, source.REWRITES ?? []]);
  return lists.flatMap(([at, rules]) =>
    rules.flatMap((rule, i) => {
      const literal = rule.TO.split("$")[0] ?? "";
      const head = literal.slice(0, Math.max(literal.lastIndexOf("/"), literal.lastIndexOf("\\")) + 1);
      if (!/^(?:\/|[A-Za-z]:\\|\\\\)/.test(head)) return [];
      try {
        parsePath(head);
      } catch {
        return [];
      }
      return [{ rule: `${at}[${i}]`, head }];
    }),
  );
}
