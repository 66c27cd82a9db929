import type { TargetKindConfig, TargetKinds } from "../config/target-kind.js";
import type { TargetType } from "../domain.js";
import { arrConfig } from "./arr/config.js";
import { audiobookshelfConfig } from "./audiobookshelf/config.js";
import { autoscanConfig } from "./autoscan/config.js";
import { commandConfig } from "./command/config.js";
import { embyConfig } from "./emby/config.js";
import type { TargetFactory } from "./factory.js";
import { fileflowsConfig } from "./fileflows/config.js";
import { jellyfinConfig } from "./jellyfin/config.js";
import { plexConfig } from "./plex/config.js";
import { tdarrConfig } from "./tdarr/config.js";

interface TargetKind {
  /**
   * Its folder's factory, imported when an entry of this TYPE is built: a
   * folder's client, target and after-scan code cost nothing unless configured.
   */
  load: () => Promise<TargetFactory>;
  /** The fields only this TYPE takes and the rules of its entries (its folder's config.ts); eager, the loader checks every kind. */
  config: TargetKindConfig;
}

/**
 * TARGETS[].TYPE → its folder's factory and config. A new kind of target is
 * one folder, one value in domain.ts's TARGET_TYPES and one line here (the
 * compiler asks for it once the type exists).
 */
const TARGET_KINDS: Readonly<Record<TargetType, TargetKind>> = {
  plex: { load: async () => (await import("./plex/entry-target.js")).createPlexEntryTarget, config: plexConfig },
  jellyfin: { load: async () => (await import("./jellyfin/jellyfin-target.js")).createJellyfinTarget, config: jellyfinConfig },
  emby: { load: async () => (await import("./emby/emby-target.js")).createEmbyTarget, config: embyConfig },
  autoscan: { load: async () => (await import("./autoscan/autoscan-target.js")).createAutoscanTarget, config: autoscanConfig },
  tdarr: { load: async () => (await import("./tdarr/tdarr-target.js")).createTdarrTarget, config: tdarrConfig },
  sonarr: { load: async () => (await import("./arr/sonarr.js")).createSonarrTarget, config: arrConfig },
  radarr: { load: async () => (await import("./arr/radarr.js")).createRadarrTarget, config: arrConfig },
  command: { load: async () => (await import("./command/command-target.js")).createCommandTarget, config: commandConfig },
  audiobookshelf: {
    load: async () => (await import("./audiobookshelf/audiobookshelf-target.js")).createAudiobookshelfTarget,
    config: audiobookshelfConfig,
  },
  fileflows: { load: async () => (await import("./fileflows/fileflows-target.js")).createFileFlowsTarget, config: fileflowsConfig },
};

function eachKind<T>(pick: (kind: TargetKind) => T): Readonly<Record<TargetType, T>> {
  return Object.fromEntries(Object.entries(TARGET_KINDS).map(([type, kind]) => [type, pick(kind)])) as Record<TargetType, T>;
}

/** TYPE → the factory of its folder, loaded on the first call. */
export const TARGET_FACTORIES: Readonly<Record<TargetType, () => Promise<TargetFactory>>> = eachKind((kind) => kind.load);

/** TYPE → its fields and rules, which the config loader is given (cli/bootstrap). */
export const TARGET_CONFIGS: TargetKinds = eachKind((kind) => kind.config);
