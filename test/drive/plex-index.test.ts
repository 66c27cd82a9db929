import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPlexLibraryDb, type PlexLibraryDb } from "../../src/targets/plex/library-db.js";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";
import { copyFixtureDb, hasFixtureDb } from "../scan/helpers/plex-db.js";
import { startHarness, type Harness } from "./harness.js";

describe.skipIf(!hasFixtureDb)("drive monitor against a real Plex library database", () => {
  let dir: string;
  let plex: PlexLibraryDb;
  let fake: FakeDrive;
  let h: Harness;

  beforeAll(async () => {
    const file = copyFixtureDb();
    dir = path.dirname(file);
    plex = openPlexLibraryDb(file);
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
