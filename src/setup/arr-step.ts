import { ARR_KIND_INFO, readArrLibrary, recogniseArr, type ArrApp, type ArrLibrary } from "../arr/index.js";
import { UserError } from "../domain.js";
import { messageOf } from "../lib/errors.js";
import { splitUrlAndKey, type SetupContext } from "./context.js";

/** An *arr app that answered with its key, and what its library holds. */
export interface ArrChoice {
  app: ArrApp;
  /** "Sonarr", or "Sonarr (4K)" when the instance has its own name. */
  label: string;
  library: ArrLibrary;
}

type ArrStepContext = Pick<SetupContext, "prompt" | "say" | "interactive" | "flags" | "services">;

/**
 * Step 3: the *arr apps. Each `--arr <url>,<api key>` is recognised from its
 * system/status; on a terminal the user adds apps one by one (a wrong key or
 * address is said, and asked again). Their root folders and item folders
 * feed the mapping step.
 */
export async function chooseArrApps(ctx: ArrStepContext): Promise<ArrChoice[]> {
  const chosen: ArrChoice[] = [];
  for (const value of ctx.flags.arr) {
    const { url, key } = splitUrlAndKey(value, "--arr");
    try {
      chosen.push(await readApp(ctx, url, key));
    } catch (error) {
      throw new UserError(messageOf(error), 1);
    }
  }
  if (!ctx.interactive) {
    if (chosen.length === 0) ctx.say("No --arr given: no *arr app is read or connected (mappings stay as they are).");
    return chosen;
  }
  if (chosen.length > 0) return chosen;
  while (
    await ctx.prompt.confirm({
      message: chosen.length === 0 ? "Add a Sonarr, Radarr, Lidarr or Readarr app?" : "Add another *arr app?",
      default: chosen.length === 0,
      flag: "--arr <url>,<api key>",
    })
  ) {
    const url = await ctx.prompt.input({ message: "App URL (e.g. http://localhost:8989):", flag: "--arr <url>,<api key>" });
    const key = await ctx.prompt.password({ message: "API key (Settings > General > Security):", flag: "--arr <url>,<api key>" });
    try {
      chosen.push(await readApp(ctx, url, key));
    } catch (error) {
      ctx.say(messageOf(error));
    }
  }
  return chosen;
}

async function readApp(ctx: ArrStepContext, url: string, key: string): Promise<ArrChoice> {
  const options = { timeoutMs: ctx.services.probeTimeoutMs, fetch: ctx.services.fetch };
  const app = await recogniseArr(url, key, options);
  const info = ARR_KIND_INFO[app.kind];
  const label = app.instanceName && app.instanceName !== info.appName ? `${info.appName} (${app.instanceName})` : info.appName;
  const library = await readArrLibrary(app, options);
  ctx.say(
    `${label} ${app.version} at ${app.url}: ${library.itemCount} ${info.itemsNoun} in ${library.rootFolders.join(", ") || "no root folder"}`,
  );
  return { app, label, library };
}
