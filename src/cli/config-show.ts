import { type ConfigSources, isWithin } from "../config/env-sources.js";
import { maskConfig } from "../config/mask.js";
import type { Config } from "../config/types.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";

export interface ConfigShowOptions {
  json?: boolean;
}

/** `scanarr config show`: every value, secrets masked, each with where it came from (the file, a SCANARR_ variable, the default). */
export async function run(options: ConfigShowOptions, ctx: CommandContext): Promise<number> {
  const masked = maskConfig(ctx.written ?? ctx.config);
  const lines = flatten(masked);
  const sources = ctx.configSources ?? { settings: [], leaves: {} };
  if (options.json) {
    const shown = Object.fromEntries(lines.map((line) => [line.key, sourceOf(line.key, sources)]));
    writeLine(ctx.stdout, JSON.stringify({ ...masked, sources: shown }, null, 2));
    return 0;
  }
  const c = paint(ctx.color);
  writeLine(ctx.stdout, c.bold(`# ${ctx.paths.configFile}`));
  for (const line of lines) writeLine(ctx.stdout, `${c.cyan(line.key)} = ${line.value}  ${c.dim(`# ${sourceOf(line.key, sources)}`)}`);
  return 0;
}

/** `file`, `default`, `env SCANARR_X`, or several of them joined (a list with one entry's field from the environment). */
function sourceOf(key: string, sources: ConfigSources): string {
  const found = new Set(Object.entries(sources.leaves).flatMap(([path, source]) => (isWithin(path, key) ? [source] : [])));
  return found.size === 0 ? "default" : [...found].join(", ");
}

/** Free-form maps: printed as one JSON value, also when empty (an empty object would print no line at all). */
const SHOWN_WHOLE = new Set([
  "SERVER_PATH_MAPPINGS",
  "SERVER_SCAN_PRIORITIES",
  "SERVER_FILE_EXIST_PATH_MAPPINGS",
  "RCLONE.RC_CACHE_REFRESH.FILE_EXISTS_TO_REMOTE_MAPPINGS",
]);

function flatten(config: Config): Array<{ key: string; value: string }> {
  const out: Array<{ key: string; value: string }> = [];
  const walk = (value: unknown, key: string) => {
    if (value && typeof value === "object" && !Array.isArray(value) && !SHOWN_WHOLE.has(key)) {
      for (const [k, v] of Object.entries(value)) walk(v, key ? `${key}.${k}` : k);
    } else {
      out.push({ key, value: JSON.stringify(value) });
    }
  };
  walk(config, "");
  return out;
}
