import type { TargetKindConfig, TargetKinds } from "../config/target-kind.js";
import type { TargetType } from "../domain.js";
import { arrConfig } from "./arr/config.js";
import { audiobookshelfConfig } from "./audiobookshelf/config.js";
import { createAudiobookshelfTarget } from "./audiobookshelf/audiobookshelf-target.js";
import { autoscanConfig } from "./autoscan/config.js";
import { createAutoscanTarget } from "./autoscan/autoscan-target.js";
import { commandConfig } from "./command/config.js";
import { createCommandTarget } from "./command/command-target.js";
import { embyConfig } from "./emby/config.js";
import { createEmbyTarget } from "./emby/emby-target.js";
import type { TargetFactory } from "./factory.js";
import { fileflowsConfig } from "./fileflows/config.js";
import { createFileFlowsTarget } from "./fileflows/fileflows-target.js";
import { jellyfinConfig } from "./jellyfin/config.js";
import { createJellyfinTarget } from "./jellyfin/jellyfin-target.js";
import { plexConfig } from "./plex/config.js";
import { createPlexEntryTarget } from "./plex/entry-target.js";
import { createRadarrTarget } from "./arr/radarr.js";
import { createSonarrTarget } from "./arr/sonarr.js";
import { tdarrConfig } from "./tdarr/config.js";
import { createTdarrTarget } from "./tdarr/tdarr-target.js";

interface TargetKind {
  create: TargetFactory;
  /** The fields only this TYPE takes and the rules of its entries (its folder's config.ts). */
  config: TargetKindConfig;
}

/**
 * TARGETS[].TYPE → its folder's factory and config. A new kind of target is
 * one folder, one value in domain.ts's TARGET_TYPES and one line here (the
 * compiler asks for it once the type exists).
 */
const TARGET_KINDS: Readonly<Record<TargetType, TargetKind>> = {
  plex: { create: createPlexEntryTarget, config: plexConfig },
  jellyfin: { create: createJellyfinTarget, config: jellyfinConfig },
  emby: { create: createEmbyTarget, config: embyConfig },
  autoscan: { create: createAutoscanTarget, config: autoscanConfig },
  tdarr: { create: createTdarrTarget, config: tdarrConfig },
  sonarr: { create: createSonarrTarget, config: arrConfig },
  radarr: { create: createRadarrTarget, config: arrConfig },
  command: { create: createCommandTarget, config: commandConfig },
  audiobookshelf: { create: createAudiobookshelfTarget, config: audiobookshelfConfig },
  fileflows: { create: createFileFlowsTarget, config: fileflowsConfig },
};

function eachKind<T>(pick: (kind: TargetKind) => T): Readonly<Record<TargetType, T>> {
  return Object.fromEntries(Object.entries(TARGET_KINDS).map(([type, kind]) => [type, pick(kind)])) as Record<TargetType, T>;
}

/** TYPE → the factory of its folder. */
export const TARGET_FACTORIES: Readonly<Record<TargetType, TargetFactory>> = eachKind((kind) => kind.create);

/** TYPE → its fields and rules, which the config loader is given (cli/bootstrap). */
export const TARGET_CONFIGS: TargetKinds = eachKind((kind) => kind.config);
