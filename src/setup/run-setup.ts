import { editJson } from "../config/json-edit.js";
import { parseConfigText } from "../config/load.js";
import { TARGET_CONFIGS } from "../targets/registry.js";
import { secretValuesOf } from "../config/secrets.js";
import type { Config } from "../config/types.js";
import type { Library } from "../domain.js";
import { messageOf } from "../lib/errors.js";
import { proposeAnchorStep } from "./anchor-step.js";
import { chooseArrApps } from "./arr-step.js";
import { planConfigChanges } from "./config-changes.js";
import { connectApps } from "./connect-step.js";
import { checkFlagShapes, type SetupContext } from "./context.js";
import { chooseMappings, PLEX_TARGET, type MappedServer } from "./mappings-step.js";
import { mediaBrowserItemFolders, plexItemFolders } from "./media-items.js";
import { chooseMediaServers, type MediaServerChoice } from "./media-server-step.js";
import { choosePlex, type PlexChoice } from "./plex-step.js";
import { writeConfigChange, type WriteOutcome } from "./write-config.js";

/** The config file as the set-up found it. */
export interface SetupFile {
  path: string;
  /** Its text; undefined when there is no file yet (the starter text is the base then). */
  text: string | undefined;
  starterText: string;
}

/** Where the apps post, and whether scanarr answers there now; worked out by the command from the written config. */
export interface SetupEndpoints {
  webhookUrl(config: Config): string;
  isScanarrRunning(config: Config): Promise<boolean>;
}

export interface SetupResult {
  outcome: WriteOutcome;
  /** The config as written (or as it was when nothing changed); undefined when the write was declined. */
  config?: Config;
  failedConnections: number;
}

/**
 * The whole set-up: every question first (Plex, Jellyfin/Emby, the *arr
 * apps, the mappings), then the side effects in order: the config change
 * (shown, confirmed, written), then the apps' connections. An interruption
 * before the write leaves everything as it was.
 */
export async function runSetup(ctx: SetupContext, file: SetupFile, endpoints: SetupEndpoints): Promise<SetupResult> {
  checkFlagShapes(ctx.flags);
  const plex = await choosePlex(ctx);
  const mediaServers = await chooseMediaServers(ctx);
  const apps = await chooseArrApps(ctx);
  const servers = apps.length > 0 ? await readItemFolders(ctx, plex, mediaServers) : [];
  const mappings = await chooseMappings(ctx, apps, servers);
  proposeAnchorStep(ctx, [...plex.libraries, ...mediaServers.flatMap((s) => s.libraries)]);

  const base = file.text ?? file.starterText;
  const after = editJson(base, planConfigChanges(ctx.current, { plex, mediaServers, mappings }, file.text === undefined));
  const written = parseConfigText(after, TARGET_CONFIGS, file.path, []).config;
  const secrets = [...secretValuesOf(ctx.current), ...secretValuesOf(written)];
  const outcome = await writeConfigChange(ctx, file.path, file.text, after, secrets);
  if (outcome === "declined") return { outcome, failedConnections: 0 };
  const failedConnections = await connectApps(
    ctx,
    apps,
    endpoints.webhookUrl(written),
    apps.length > 0 && (await endpoints.isScanarrRunning(written)),
  );
  return { outcome, config: written, failedConnections };
}

/** Each server's item folders per library, for matching; a library that cannot be read is said and matched by nothing. */
async function readItemFolders(
  ctx: Pick<SetupContext, "say">,
  plex: PlexChoice,
  mediaServers: readonly MediaServerChoice[],
): Promise<MappedServer[]> {
  const read = async (
    name: string,
    libraries: readonly Library[],
    list: (library: Library) => Promise<string[]>,
  ): Promise<MappedServer> => {
    const itemFolders = new Map<string, string[]>();
    for (const library of libraries) {
      try {
        itemFolders.set(library.id, await list(library));
      } catch (error) {
        ctx.say(`${name}: could not list the folders of library ${library.title}: ${messageOf(error)}`);
      }
    }
    return { name, libraries: [...libraries], itemFolders };
  };
  const servers = [await read(PLEX_TARGET, plex.libraries, (library) => plexItemFolders(plex.api, library))];
  for (const server of mediaServers)
    servers.push(await read(server.name, server.libraries, (library) => mediaBrowserItemFolders(server.api, library)));
  return servers;
}
