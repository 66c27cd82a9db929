import { writtenKeyOf, writtenPathOf } from "../config/plex-entry.js";
import type { Config } from "../config/types.js";
import { childPath } from "../config/validate.js";
import { createPathMapper } from "../paths/mapper.js";
import { parsePath } from "../paths/parse.js";
import type { ResolvedTarget } from "../paths/trace.js";
import { describeLibraries } from "../paths/trace.js";
import { knownTargets, nearMiss, placeOn, type Placement } from "./mapping-places.js";
import { rewriteHeads } from "./rewrite-heads.js";
import type { CheckResult, DoctorCheck } from "./types.js";

/**
 * Every mapping lands in a library of every target it is for: each
 * SERVER_PATH_MAPPINGS key (a media-server path) as each target sees it, and
 * each key of a TARGETS entry's own PATH_MAPPINGS in that target; every list
 * entry without a leading slash really is a cloud-drive path; and where each
 * regular-expression rewrite's results land (the fixed start of its TO, mapped).
 * The top support theme of scan tools ("no matching library") is a key that
 * lands nowhere.
 */
export const mappingsCheck: DoctorCheck = {
  name: "mappings",
  async run(ctx) {
    const keys = Object.keys(ctx.config.SERVER_PATH_MAPPINGS);
    const resolved = await ctx.libraries();
    const own = resolved.flatMap((target) => checkTargetMappings(target, ctx.config));
    const rewrites = rewriteHeads(ctx.config);
    if (keys.length === 0 && rewrites.length === 0) {
      return [
        { name: "mappings", ok: true, detail: "SERVER_PATH_MAPPINGS is empty: paths must arrive as the media servers name them" },
        ...own,
      ];
    }
    const placed = keys.map((key) => ({ key, on: knownTargets(resolved).map((t) => placeOn(t, t.toTargetPath(key))) }));
    // A target holding none of the mapped folders is wired wrong; one holding some is taken to serve only those.
    const servesSome = new Set(placed.flatMap((p) => p.on.filter((o) => o.found.length > 0).map((o) => o.target.name)));
    const mapper = createPathMapper(ctx.config.SERVER_PATH_MAPPINGS);
    const rewritten = rewrites.map(({ rule, head }) => {
      const at = mapper.toServerPath(head);
      const on = knownTargets(resolved).map((t) => placeOn(t, t.toTargetPath(at)));
      const result = checkKey(at, on, resolved, servesSome, ctx.config);
      return { ...result, name: `rewrite ${rule}`, detail: `its TO starts with ${head}, so ${result.detail}` };
    });
    return [
      ...placed.map(({ key, on }) => checkKey(key, on, resolved, servesSome, ctx.config)),
      ...rewritten,
      ...own,
      ...checkRelativeEntries(ctx.config),
    ];
  },
};

function checkKey(
  key: string,
  on: readonly Placement[],
  targets: readonly ResolvedTarget[],
  servesSome: ReadonlySet<string>,
  config: Config,
): CheckResult {
  const name = `mapping ${key}`;
  const unknown = targets.filter((t) => !Array.isArray(t.libraries)).map((t) => t.name);
  const unchecked = unknown.length > 0 ? `; not checked on ${unknown.join(", ")} (libraries unknown: see the target line)` : "";
  if (on.length === 0)
    return { name, ok: false, detail: `cannot check ${key}: libraries unknown (${unknown.join(", ")}: see the target line)` };
  const held = on.filter((o) => o.found.length > 0);
  const missed = on.filter((o) => o.found.length === 0);
  if (held.length === 0) {
    const listed = on.map((o) => `${o.target.name} has ${describeLibraries(libsOf(o))}`).join("; ");
    const hint = on.map((o) => hintFor(o, key, config)).find((h) => h !== "") ?? "";
    return { name, ok: false, detail: `${key} is in no library, so nothing mapped to it gets scanned: ${listed}${hint}${unchecked}` };
  }
  const found = `${key} is ${held.flatMap((o) => o.found).join(", ")}`;
  const miswired = missed.filter((o) => !servesSome.has(o.target.name));
  if (miswired.length > 0) {
    const names = miswired.map((o) => o.target.name).join(" and ");
    const why = miswired
      .map((o) => `${o.target.name}${seenAs(o, key)} has ${describeLibraries(libsOf(o))}${hintFor(o, key, config)}`)
      .join("; ");
    return {
      name,
      ok: false,
      detail: `${found}, but no library of ${names} holds it, so scans under it are skipped there: ${why}${unchecked}`,
    };
  }
  const partial = missed.map((o) => o.target.name);
  const skipped =
    partial.length > 0
      ? `; not in a library of ${partial.join(", ")}, so scans under it skip ${partial.length === 1 ? "it" : "them"} (each holds other mapped folders)`
      : "";
  return { name, ok: true, detail: `${found}${skipped}${unchecked}` };
}

/** Each key of a TARGETS entry's PATH_MAPPINGS is that target's own path: it must be in one of its libraries. */
function checkTargetMappings(target: ResolvedTarget, config: Config): CheckResult[] {
  const index = config.TARGETS.findIndex((e) => e.ENABLED && e.NAME.toLowerCase() === target.name.toLowerCase());
  const entry = config.TARGETS[index];
  if (!entry) return [];
  return Object.keys(entry.PATH_MAPPINGS).map((key): CheckResult => {
    const name = `mapping ${target.name} ${key}`;
    const at = childPath(writtenKeyOf(config, index, "PATH_MAPPINGS"), key);
    const [known] = knownTargets([target]);
    if (!known) return { name, ok: false, detail: `cannot check ${at}: the libraries of ${target.name} are unknown (see the target line)` };
    const placed = placeOn(known, key);
    if (placed.found.length > 0) return { name, ok: true, detail: `${at}: ${key} is ${placed.found.join(", ")}` };
    const { beside } = nearMiss(key, known.libraries);
    return {
      name,
      ok: false,
      detail:
        `${at}: ${key} is in no library of ${target.name}, so scans mapped to it are skipped there; ` +
        `${target.name} has ${describeLibraries(known.libraries)}${beside ? `; did you mean ${JSON.stringify(beside)}?` : ""}`,
    };
  });
}

function libsOf(placement: Placement): Parameters<typeof describeLibraries>[0] {
  return Array.isArray(placement.target.libraries) ? placement.target.libraries : [];
}

function seenAs(placement: Placement, key: string): string {
  return placement.seen === key ? "" : ` sees it as ${placement.seen} and`;
}

/** `; did you mean "/data/TV-Shows/"?`, or the PATH_MAPPINGS a target seeing the folder elsewhere needs; "" when nothing is near. */
function hintFor(placement: Placement, key: string, config: Config): string {
  const { beside, elsewhere } = nearMiss(placement.seen, libsOf(placement));
  if (beside) return `; did you mean ${JSON.stringify(beside)}?`;
  const index = config.TARGETS.findIndex((e) => e.ENABLED && e.NAME.toLowerCase() === placement.target.name.toLowerCase());
  // The entry the flat PLEX_* keys made has no PATH_MAPPINGS of its own to add to.
  const place = index < 0 ? undefined : writtenPathOf(config, index);
  if (elsewhere === undefined || place === undefined) return "";
  const entry = JSON.stringify({ [elsewhere]: [key] });
  return `; if ${placement.target.name} sees this folder as ${elsewhere}, add ${entry} to ${place}.PATH_MAPPINGS`;
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
