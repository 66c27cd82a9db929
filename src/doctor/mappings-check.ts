import type { Config, RewriteEntry } from "../config/types.js";
import { createPathMapper } from "../paths/mapper.js";
import { isWithin } from "../paths/index.js";
import { parsePath } from "../paths/parse.js";
import type { ResolvedTarget } from "../paths/trace.js";
import { describeLibraries } from "../paths/trace.js";
import { childPath } from "../config/validate.js";
import type { CheckResult, DoctorCheck } from "./types.js";

/**
 * Every SERVER_PATH_MAPPINGS key (a media-server path) is inside a library of
 * some target, or holds libraries; and every list entry without a leading
 * slash really is a cloud-drive path. The top support theme of scan tools
 * ("no matching library") is a key that is neither.
 */
export const mappingsCheck: DoctorCheck = {
  name: "mappings",
  async run(ctx) {
    const keys = Object.keys(ctx.config.SERVER_PATH_MAPPINGS);
    const rewrites = rewriteHeads(ctx.config);
    if (keys.length === 0 && rewrites.length === 0) {
      return [{ name: "mappings", ok: true, detail: "SERVER_PATH_MAPPINGS is empty: paths must arrive as Plex names them" }];
    }
    const resolved = await ctx.libraries();
    const mapper = createPathMapper(ctx.config.SERVER_PATH_MAPPINGS);
    const rewriteResults = rewrites.map(({ rule, head }) => {
      const result = checkKey(mapper.toServerPath(head), resolved, `rewrite ${rule}`);
      return { ...result, detail: `its TO starts with ${head}, so ${result.detail}` };
    });
    return [...keys.map((key) => checkKey(key, resolved)), ...rewriteResults, ...checkRelativeEntries(ctx.config)];
  },
};

function checkKey(key: string, targets: readonly ResolvedTarget[], name = `mapping ${key}`): CheckResult {
  const found: string[] = [];
  const unknown: string[] = [];
  for (const target of targets) {
    if (!Array.isArray(target.libraries)) {
      unknown.push(target.name);
      continue;
    }
    const path = target.toTargetPath(key);
    for (const library of target.libraries) {
      const inside = library.locations.find((l) => isWithin(l, path));
      if (inside !== undefined) found.push(`inside ${library.title} (${target.name}: ${inside})`);
      else if (library.locations.some((l) => isWithin(path, l))) found.push(`holds ${library.title} (${target.name})`);
    }
  }
  if (found.length > 0) return { name, ok: true, detail: `${key} is ${found.join(", ")}` };
  if (unknown.length === targets.length)
    return { name, ok: false, detail: `cannot check ${key}: libraries unknown (${unknown.join(", ")}: see the target line)` };
  const listed = targets.flatMap((t) => (Array.isArray(t.libraries) ? [`${t.name} has ${describeLibraries(t.libraries)}`] : [])).join("; ");
  const hint = nearMiss(key, targets);
  return { name, ok: false, detail: `${key} is in no library, so nothing mapped to it gets scanned: ${listed}${hint}` };
}

/**
 * The folder every result of a rewrite starts with: its TO up to the first
 * `$` reference, cut at the last separator (`/movies/${title} (${year})/`
 * gives `/movies/`); rules whose TO starts with a reference, or is no
 * absolute path, say nothing checkable.
 */
function rewriteHeads(config: Config): Array<{ rule: string; head: string }> {
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

/** A library folder next to the key with a similar name (`/data/TV/` vs `/data/TV-Shows`). */
function nearMiss(key: string, targets: readonly ResolvedTarget[]): string {
  const parsed = parsePath(key);
  const last = parsed.parts[parsed.parts.length - 1]?.toLowerCase() ?? "";
  for (const target of targets) {
    if (!Array.isArray(target.libraries)) continue;
    for (const location of target.libraries.flatMap((l) => l.locations)) {
      const other = parsePath(location);
      const sameParent =
        other.parts.length === parsed.parts.length && other.parts.slice(0, -1).join("/") === parsed.parts.slice(0, -1).join("/");
      const otherLast = other.parts[other.parts.length - 1]?.toLowerCase() ?? "";
      if (sameParent && other.root === parsed.root && last !== "" && (otherLast.startsWith(last) || last.startsWith(otherLast))) {
        return `; did you mean ${JSON.stringify(location.endsWith("/") ? location : `${location}/`)}?`;
      }
    }
  }
  return "";
}

/** List entries without a leading slash match only cloud-drive paths (`My Drive/...`, a shared drive's name). */
function checkRelativeEntries(config: Config): CheckResult[] {
  const results: CheckResult[] = [];
  for (const [key, entries] of Object.entries(config.SERVER_PATH_MAPPINGS)) {
    entries.forEach((entry, i) => {
      const parsed = parsePath(entry);
      if (parsed.style !== "relative") return;
      const first = parsed.parts[0] ?? "";
      if (first.toLowerCase() === "my drive" || config.CLOUD.TEAMDRIVE) return;
      results.push({
        name: `mapping ${key}`,
        ok: false,
        detail:
          `${childPath("SERVER_PATH_MAPPINGS", key)}[${i}] ${JSON.stringify(entry)} has no leading slash, so it matches only cloud-drive ` +
          `paths (My Drive/..., or a shared drive's name with CLOUD.TEAMDRIVE); did you mean ${JSON.stringify(`/${entry}`)}?`,
      });
    });
  }
  return results;
}
