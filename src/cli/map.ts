import { isSourceName } from "../config/source-rules.js";
import { UserError, type RewriteHit } from "../domain.js";
import { createServerMapper, createSourceTable } from "../ingest/sources.js";
import { describeMappingToAdd } from "../paths/drive-mapping-hint.js";
import { isScannable, resolveTargets, tracePath, type PathTrace, type TraceInput } from "../paths/trace.js";
import { buildTargets } from "../targets/build-targets.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";

export interface MapOptions {
  args?: unknown[];
  kind?: "file" | "folder";
  /** A SOURCES name: trace with that source's rewrites and filters. */
  source?: string;
  json?: boolean;
}

/** `scanarr map <path>...`: every step from the path given to the library that would scan it; exit 1 when one would not be scanned. */
export async function run(options: MapOptions, ctx: CommandContext): Promise<number> {
  const inputs = (Array.isArray(options.args?.[0]) ? options.args[0] : (options.args ?? [])).filter(
    (p): p is string => typeof p === "string",
  );
  if (inputs.length === 0) throw new UserError("map needs at least one path", 2);
  const { source } = options;
  if (source !== undefined && !isSourceName(source, ctx.config))
    throw new UserError(
      `--source ${JSON.stringify(source)}: no source has this name (sonarr, radarr, lidarr, readarr, manual, a-train, watch, drive or a TRIGGERS name)`,
      2,
    );
  const settings = source === undefined ? undefined : createSourceTable(ctx.config).settingsFor(source);
  const targets = await resolveTargets(await buildTargets(ctx.config, { logger: ctx.logger, env: ctx.env }));
  const deps: TraceInput = {
    mapper: settings?.mapper ?? createServerMapper(ctx.config),
    ignoreList: ctx.config.SERVER_IGNORE_LIST,
    kind: options.kind,
    targets,
    driveFolders: ctx.config.CLOUD.ALLOWED.FILE_PATHS,
  };
  if (source !== undefined) deps.source = settings?.filter ? { name: source, filter: settings.filter } : { name: source };
  const traces = inputs.map((input) => tracePath(input, deps));
  if (options.json) writeLine(ctx.stdout, JSON.stringify(traces, null, 2));
  else traces.forEach((trace, i) => printTrace(ctx, trace, i > 0));
  return traces.every(isScannable) ? 0 : 1;
}

function printTrace(ctx: CommandContext, trace: PathTrace, gap: boolean): void {
  const c = paint(ctx.color);
  const line = (label: string, text: string) => writeLine(ctx.stdout, `  ${label.padEnd(8)} ${text}`);
  if (gap) writeLine(ctx.stdout);
  writeLine(ctx.stdout, c.bold(trace.input));
  if (trace.rewrite) line("rewrite", describeRewrite(trace.rewrite));
  else if (trace.source !== undefined)
    line("rewrite", `no REWRITES entry of SOURCES[${JSON.stringify(trace.source)}] or SERVER_PATH_REWRITES matches`);
  if (trace.error !== undefined) {
    line("error", c.red(trace.error));
    if (trace.addMapping) line("fix", describeMappingToAdd(trace.addMapping));
    return;
  }
  line(
    "mapping",
    !trace.mapping
      ? "no SERVER_PATH_MAPPINGS entry matches; the path is used as it is"
      : trace.mapping.prefix === trace.mapping.key
        ? `already the media server's path (the key ${JSON.stringify(trace.mapping.key)} itself)`
        : `${trace.mapping.prefix} -> ${trace.mapping.key}  (an entry of SERVER_PATH_MAPPINGS[${JSON.stringify(trace.mapping.key)}])`,
  );
  line("server", trace.serverPath ?? "");
  if (trace.ignoredBy !== undefined)
    return line("ignored", c.yellow(`matches SERVER_IGNORE_LIST entry ${JSON.stringify(trace.ignoredBy)}: not scanned`));
  if (trace.filteredBy !== undefined) return line("filtered", c.yellow(`${trace.filteredBy}: not scanned`));
  if (trace.kind) line(trace.kind.isFile ? "file" : "folder", trace.kind.why);
  line("scan", trace.folder ?? "");
  for (const step of trace.targets) {
    if (step.rewrite) line(step.target, describeRewrite(step.rewrite));
    const as = step.path === trace.folder ? "" : `as ${step.path}: `;
    if (step.library)
      line(step.target, c.green(`${as}${step.library.title} (section ${step.library.id}, folder ${step.library.location})`));
    else line(step.target, c.red(step.why ?? "no library"));
  }
  const scanned = trace.targets.filter((t) => t.library !== undefined).map((t) => t.target);
  const skipped = trace.targets.filter((t) => t.library === undefined).map((t) => t.target);
  if (scanned.length === 0) return line("result", c.red("not scanned: no target has a library holding it"));
  line("result", `scanned by ${scanned.join(", ")}${skipped.length > 0 ? c.yellow(`; skipped by ${skipped.join(", ")}`) : ""}`);
}

/** `/tv/x -> /data/TV/x  (SERVER_PATH_REWRITES[0]: "^/tv/(.*)" -> "/data/TV/$1")` */
function describeRewrite(hit: RewriteHit): string {
  return `${hit.result}  (${hit.rule}: ${JSON.stringify(hit.from)} -> ${JSON.stringify(hit.to)})`;
}
