import { stat } from "node:fs/promises";
import { generateServerPass } from "../config/defaults.js";
import { writeStarterConfig } from "../config/load.js";
import { UserError } from "../domain.js";
import { TARGET_CONFIGS } from "../targets/registry.js";
import { nextStepCommand } from "./command-line.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";

/** `scanarr init`: writes the starting config where the other commands will look for it, and says what to edit. */
export async function run(_options: unknown, ctx: CommandContext): Promise<number> {
  const file = ctx.paths.configFile;
  if (await exists(file)) {
    const scanarr = nextStepCommand(ctx);
    throw new UserError(`${file} already exists; it was not changed. Check it with \`${scanarr} config check\` and \`${scanarr} doctor\`.`);
  }
  await writeStarterConfig(file, generateServerPass(), TARGET_CONFIGS);
  const c = paint(ctx.color);
  const scanarr = nextStepCommand(ctx);
  const out = (line = "") => writeLine(ctx.stdout, line);
  out(c.green(`Wrote a starting config to ${file} (mode 0600: it holds SERVER_PASS, and soon PLEX_TOKEN).`));
  out('Keys starting with "_" are notes that scanarr ignores; the lines to change say EDIT. Next:');
  out();
  out(`  1. Set ${c.bold("PLEX_TOKEN")} (docs/plex-token.md shows where to find it) and ${c.bold("PLEX_LOCAL_URL")}.`);
  out(`  2. Set ${c.bold("SERVER_PATH_MAPPINGS")}: key = a folder as Plex sees it, list = the same folder as Sonarr/Radarr see it.`);
  out(`     Try a path:   ${scanarr} map "/tv/Some Show/Season 1/Some Show - S01E01.mkv"`);
  out(`  3. Check:        ${scanarr} doctor`);
  out(`  4. Run:          ${scanarr} serve        (systemd and Docker: docs/running.md, contrib/README.md)`);
  out(`  5. In Sonarr/Radarr, Settings > Connect > + > Webhook, paste the URL from:  ${scanarr} url`);
  out();
  out("Coming from plex_autoscan? Its config.json can replace this one: docs/migrating.md.");
  return 0;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
