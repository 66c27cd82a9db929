import { maskConfig } from "../config/mask.js";
import type { Config } from "../config/types.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";

export interface ConfigShowOptions {
  json?: boolean;
}

export async function run(options: ConfigShowOptions, ctx: CommandContext): Promise<number> {
  const masked = maskConfig(ctx.written ?? ctx.config);
  if (options.json) {
    writeLine(ctx.stdout, JSON.stringify(masked, null, 2));
    return 0;
  }
  const c = paint(ctx.color);
  writeLine(ctx.stdout, c.bold(`# ${ctx.paths.configFile}`));
  for (const line of flatten(masked)) writeLine(ctx.stdout, `${c.cyan(line.key)} = ${line.value}`);
  return 0;
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
