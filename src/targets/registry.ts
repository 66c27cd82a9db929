import type { TargetType } from "../domain.js";
import { createAutoscanTarget } from "./autoscan/autoscan-target.js";
import { createCommandTarget } from "./command/command-target.js";
import { createEmbyTarget } from "./emby/emby-target.js";
import type { TargetFactory } from "./factory.js";
import { createJellyfinTarget } from "./jellyfin/jellyfin-target.js";
import { createPlexEntryTarget } from "./plex/plex-target.js";
import { createRadarrTarget } from "./arr/radarr.js";
import { createSonarrTarget } from "./arr/sonarr.js";
import { createTdarrTarget } from "./tdarr/tdarr-target.js";

/**
 * TARGETS[].TYPE → the factory of its folder. A new kind of target is one
 * folder, one value in domain.ts's TARGET_TYPES and one line here (the
 * compiler asks for it once the type exists).
 */
export const TARGET_FACTORIES: Readonly<Record<TargetType, TargetFactory>> = {
  plex: createPlexEntryTarget,
  jellyfin: createJellyfinTarget,
  emby: createEmbyTarget,
  autoscan: createAutoscanTarget,
  tdarr: createTdarrTarget,
  sonarr: createSonarrTarget,
  radarr: createRadarrTarget,
  command: createCommandTarget,
};
