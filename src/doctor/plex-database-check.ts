import { existsSync } from "node:fs";
import { plexEntryOf } from "../config/plex-entry.js";
import { openPlexLibraryDb } from "../targets/plex/library-db.js";
import type { DoctorCheck } from "./types.js";
import { messageOf } from "../lib/errors.js";

/**
 * PLEX_DATABASE_PATH (the Plex database on this machine, a flat key: drive
 * monitoring reads it, and so does the Plex entry with the scanner method)
 * opens read-only and lists the libraries; a failure matters only where it is read.
 */
export const plexDatabaseCheck: DoctorCheck = {
  name: "plex database",
  async run(ctx) {
    const name = "plex database";
    const { config } = ctx;
    const file = config.PLEX_DATABASE_PATH;
    const users = [
      config.CLOUD.ENABLED ? "drive monitoring" : "",
      config.TARGETS.some((t) => t.ENABLED && t.TYPE === "plex" && plexEntryOf(t, config).SCAN_METHOD === "scanner")
        ? "the scanner method"
        : "",
    ].filter(Boolean);
    const neededBy = users.length > 0 ? `${users.join(" and ")} read${users.length === 1 ? "s" : ""} it` : "";
    if (file === "") return [{ name, ok: users.length === 0, detail: `PLEX_DATABASE_PATH is empty${neededBy ? `, but ${neededBy}` : ""}` }];
    if (!existsSync(file)) {
      if (users.length === 0)
        return [{ name, ok: true, detail: `${file} not found; not needed (only drive monitoring and the scanner method read it)` }];
      return [
        { name, ok: false, detail: `${file} not found, but ${neededBy}: point PLEX_DATABASE_PATH at com.plexapp.plugins.library.db` },
      ];
    }
    try {
      const db = openPlexLibraryDb(file);
      try {
        const count = db.listLibraries().length;
        return [{ name, ok: true, detail: `${file} is readable (${count} ${count === 1 ? "library" : "libraries"})` }];
      } finally {
        db.close();
      }
    } catch (error) {
      return [{ name, ok: users.length === 0, detail: `${file} cannot be read: ${messageOf(error)}` }];
    }
  },
};
