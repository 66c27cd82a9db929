import { withIsoTwins } from "../lib/iso-twins.js";
import { existsSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { UserError } from "../domain.js";
import { createPathMapper } from "../paths/mapper.js";
import { clockTime, mappedFrom } from "../queue/views/reasons.js";
import { requestStatus, type RequestStatus, type RequestTrail } from "../queue/views/request-status.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";

export interface StatusOptions {
  args?: unknown[];
  json?: boolean;
}

/** The queue version `scanarr status` reads (migration 6 added the requests' paths). */
const NEEDED_VERSION = 6;

/**
 * `scanarr status <path>`: where the requests for a file or folder went, read
 * from the service's database without writing (safe while serve runs).
 * Exit 0 when some request named it, 1 when none did.
 */
export async function run(options: StatusOptions, ctx: CommandContext): Promise<number> {
  const input = options.args?.find((a): a is string => typeof a === "string");
  if (!input) throw new UserError("status needs a path", 2);
  const file = ctx.paths.database;
  if (!existsSync(file)) throw new UserError(`no database at ${file}: scanarr serve has not run with this install folder`, 1);
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    const version = (db.prepare("SELECT MAX(version) AS v FROM scan_migrations").get() as { v: number | null }).v ?? 0;
    if (version < NEEDED_VERSION)
      throw new UserError(`the database at ${file} is from an older scanarr: start scanarr serve once to bring it up to date`, 1);
    const status = requestStatus(db, [input, ...mappedForm(ctx, input)], Date.now());
    if (options.json) writeLine(ctx.stdout, JSON.stringify(withIsoTwins({ path: input, ...status }), null, 2));
    else print(ctx, input, status);
    return status.requests.length > 0 ? 0 : 1;
  } finally {
    db.close();
  }
}

/** The path as SERVER_PATH_MAPPINGS rewrites it, when it does. */
function mappedForm(ctx: CommandContext, input: string): string[] {
  try {
    const mapped = createPathMapper(ctx.config.SERVER_PATH_MAPPINGS).explain(input).serverPath;
    return mapped === input ? [] : [mapped];
  } catch {
    return [];
  }
}

function print(ctx: CommandContext, input: string, status: RequestStatus): void {
  const c = paint(ctx.color);
  writeLine(ctx.stdout, c.bold(input));
  if (status.requests.length === 0) {
    const also = status.looked.length > 1 ? ` (nor for ${status.looked.slice(1).join(", ")})` : "";
    writeLine(ctx.stdout, `  no request for this path${also}`);
    if (status.nearest.length > 0) writeLine(ctx.stdout, `  the nearest were:\n${status.nearest.map((p) => `    ${p}`).join("\n")}`);
    else writeLine(ctx.stdout, "  the database holds no request near it");
    return;
  }
  status.requests.forEach((trail, i) => printTrail(ctx, trail, i > 0));
}

function printTrail(ctx: CommandContext, { origin, scan }: RequestTrail, gap: boolean): void {
  const c = paint(ctx.color);
  const now = Date.now();
  const line = (label: string, text: string) => writeLine(ctx.stdout, `  ${label.padEnd(10)} ${text}`);
  if (gap) writeLine(ctx.stdout);
  const times = origin.times > 1 ? `, ${origin.times} times (last ${clockTime(origin.lastAt, now)})` : "";
  line("received", `${clockTime(origin.firstAt, now)} from ${origin.source} (${origin.event})${times}: ${origin.path}`);
  line("mapped", `${origin.mapped} — ${mappedFrom(origin)}`);
  line("scan", `#${scan.id} of ${scan.folder}, ${scan.requests} request${scan.requests === 1 ? "" : "s"} in all`);
  for (const d of scan.deliveries) {
    const when = d.state === "pending" || d.state === "waiting" ? "" : ` at ${clockTime(d.updatedAt, now)}`;
    const error = d.lastError ? `: ${d.lastError}` : "";
    const tone = d.state === "done" ? c.green : d.state === "failed" || d.state === "unconfirmed" ? c.red : (s: string) => s;
    line(d.target, tone(`${d.state}${when}${d.attempts > 0 ? ` (${d.attempts} attempt${d.attempts === 1 ? "" : "s"})` : ""}${error}`));
  }
  line("now", `${scan.stateText}${scan.reason ? `: ${scan.reason.text}` : ""}`);
}
