import { defaultConfig } from "../../config/defaults.js";
import { plexEntryOf } from "../../config/plex-entry.js";
import type { TargetFactory } from "../factory.js";
import { LibraryCache } from "../library-cache.js";
import { resolveScannerSettings } from "../plex-scanner/scanner-command.js";
import { createScannerTarget } from "../plex-scanner/scanner-target.js";
import { afterScanOf, createNamedPlexTarget } from "./plex-target.js";

/**
 * A TARGETS entry of TYPE "plex", the one the loader made of the flat
 * PLEX_* keys included: through the API, or with the scanner method (that
 * entry only) Plex Media Scanner on this machine, run as its own flat keys
 * say. Every setting, after-scan work included, comes from the entry; the
 * keys its messages name are the ones the user wrote (`keyOf`).
 */
export const createPlexEntryTarget: TargetFactory = ({ entry, at, keyOf, config }, deps) => {
  const whole = config ?? defaultConfig("");
  const plex = plexEntryOf(entry, whole);
  const key = keyOf ?? ((field: string) => `${at}.${field}`);
  const keys = { urlKey: key("URL"), tokenKey: key("TOKEN") };
  const { clock, logger, env = {}, signal } = deps;
  if (plex.SCAN_METHOD === "scanner") {
    const settings = resolveScannerSettings(whole, {}, true);
    const afterScan = { entry: plex, env, scanner: settings, ...(signal ? { signal } : {}) };
    const options = { name: plex.NAME, settings, databasePath: plex.DATABASE_PATH, env, logger, ...(signal ? { signal } : {}) };
    const scanner = createScannerTarget(options);
    // The scanner target reads the Plex database on every listLibraries(); the cache serves the HTTP side.
    const libraries = new LibraryCache({ clock, logger, name: plex.NAME, fetch: () => scanner.listLibraries() });
    const capability = afterScanOf(keys, { ...deps, afterScan });
    return { ...scanner, where: scanner.where ?? plex.NAME, libraries, ...(capability ? { afterScan: capability } : {}) };
  }
  const settings = { name: plex.NAME, url: plex.URL, token: plex.TOKEN, ...keys, databasePath: plex.DATABASE_PATH };
  return createNamedPlexTarget(settings, { ...deps, afterScan: { entry: plex, env, ...(signal ? { signal } : {}) } });
};
