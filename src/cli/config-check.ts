import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";

/** The loader already validated the file before this runs; reaching here means it is valid. */
export async function run(_options: unknown, ctx: CommandContext): Promise<number> {
  writeLine(ctx.stdout, paint(ctx.color).green(`config OK: ${ctx.paths.configFile}`));
  return 0;
}
