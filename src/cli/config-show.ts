import { maskConfig } from "../config/mask.js";
import type { Config } from "../config/types.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";

export interface ConfigShowOptions {
  json?: boolean;
}

export async function run(options: ConfigShowOptions, ctx: CommandContext): Promise<number> {
  const masked = maskConfig(ctx.config);
  if (options.json) {
    writeLine(ctx.stdout, JSON.stringify(masked, null, 2));
    return 0;
  }
  const c = paint(ctx.color);
  writeLine(ctx.stdout, c.bold(`# ${ctx.paths.configFile}`));
  for (const line of flatten(masked)) writeLine(ctx.stdout, `${c.cyan(line.key)} = ${line.value}`);
  return 0;
}

function flatten(config: Config): Array<{ key: string; value: string }> {
  const out: Array<{ key: string; value: string }> = [];
  const walk = (value: unknown, key: string) => {
    if (value && typeof value === "object" && !Array.isArray(value) && key !== "SERVER_PATH_MAPPINGS" && key !== "SERVER_SCAN_PRIORITIES") {
      for (const [k, v] of Object.entries(value)) walk(v, key ? `${key}.${k}` : k);
    } else {
      out.push({ key, value: JSON.stringify(value) });
    }
  };
  walk(config, "");
  return out;
}
