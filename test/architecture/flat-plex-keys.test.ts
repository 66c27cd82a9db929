import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readImportGraph } from "./import-graph.js";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

/** A read of a flat key the loader turns into the Plex TARGETS entry (config/plex-entry.ts). */
const TARGET_KEY = /\.PLEX_(?:LOCAL_URL|TOKEN|ENABLED|SCAN_METHOD|CONFIRM_\w+|ANALYZE_\w+|EMPTY_TRASH(?:_MAX_FILES|_ZERO_DELETED)?)\b(?!_)/;

/**
 * Where the flat keys are still read on purpose: the loader's own folder,
 * set-up and import (they edit or write the user's file, so they name its
 * keys), and `scan`'s library listing (the Plex on this machine, asked when
 * its database cannot be read; docs/configuration.md).
 */
const ALLOWED = ["config/", "setup/", "import/", "targets/plex/library-source.ts"];

describe("the flat PLEX_* keys below the loader", () => {
  it("are read nowhere: the Plex target's settings come from its TARGETS entry", () => {
    const readers = readImportGraph(SRC)
      .files.filter((file) => !ALLOWED.some((allowed) => file.startsWith(allowed)))
      .filter((file) => TARGET_KEY.test(readFileSync(join(SRC, file), "utf8")));
    expect(readers).toEqual([]);
  });
});
