import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPlexLibraryDb, type PlexLibraryDb } from "../../src/targets/plex/library-db.js";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";
import { startHarness, type Harness } from "./harness.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = path.resolve(repoRoot, "../shared/fixtures");
const plexDb = path.join(fixtures, "plex", "com.plexapp.plugins.library.db");
const present = existsSync(plexDb);
if (!present) console.warn(`skipping the Plex-database drive tests: ${plexDb} is missing`);

describe.skipIf(!present)("drive monitor against a real Plex library database", () => {
  let dir: string;
  let plex: PlexLibraryDb;
  let fake: FakeDrive;
  let h: Harness;

  beforeAll(async () => {
    // A WAL database: copy all three files, then open the copy read-only.
    dir = mkdtempSync(path.join(tmpdir(), "scanarr-plexdb-"));
    for (const suffix of ["", "-wal", "-shm"]) {
      if (existsSync(plexDb + suffix)) copyFileSync(plexDb + suffix, path.join(dir, `library.db${suffix}`));
    }
    plex = openPlexLibraryDb(path.join(dir, "library.db"));
    fake = await startFakeDrive();
    h = await startHarness(undefined, fake, plex);
    await h.poll();
  });
  afterAll(async () => {
    await h.close();
    await fake.close();
    plex.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("skips a file Plex already has and queues the folder of one it does not", async () => {
    const movies = fake.addFolderPath("Media/Movies");
    fake.addFile("Sintel (2010).mkv", movies);
    fake.addFile("new.mkv", fake.addFolder("New (2021)", movies));
    await h.poll();
    expect(h.sink.folders).toEqual(["/data/Movies/New (2021)"]);
  });
});
