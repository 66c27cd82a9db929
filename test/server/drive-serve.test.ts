import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";
import { buildPlexDb } from "../scan/helpers/plex-db.js";
import {
  advanceUntil,
  deliveriesSettled,
  startTestService,
  storedScans,
  type TestService,
  fakeDriveCloud,
  writeFakeDriveToken,
} from "../helpers/service.js";

let drive: FakeDrive | undefined;
let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  await drive?.close();
  t = undefined;
});

describe("serve with drive monitoring", () => {
  it("scans a new drive file Plex lacks, and not known files, .txt, files outside FILE_PATHS or trashed files", async () => {
    drive = await startFakeDrive();
    const fake = drive;
    let movies = "";
    let other = "";
    fake.seed(() => {
      movies = fake.addFolderPath("Media/Movies");
      other = fake.addFolderPath("Media/Other");
    });
    const plexDb = buildPlexDb(
      [{ id: 1, name: "Movies", type: 1, locations: ["/data/Movies"] }],
      [{ file: "/data/Movies/Known (2001)/Known (2001).mkv" }],
    );
    const clock = new ManualClock(Date.now());
    t = await startTestService(
      {
        SERVER_PATH_MAPPINGS: { "/data/Movies/": ["My Drive/Media/Movies/"] },
        PLEX_DATABASE_PATH: plexDb,
        CLOUD: fakeDriveCloud(fake.url, ["My Drive/Media/Movies/"], 60),
      },
      {
        sections: [{ key: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] }],
        clock,
        beforeStart: writeFakeDriveToken,
      },
    );
    expect(t.service.drive).toBeDefined();
    await advanceUntil(clock, () => fake.calls["changes.getStartPageToken"] >= 1 && fake.calls["files.list"] >= 1, "the first poll");

    const newFolder = fake.addFolder("New (2020)", movies);
    fake.addFile("New (2020).mkv", newFolder);
    const knownFolder = fake.addFolder("Known (2001)", movies);
    fake.addFile("Known (2001).mkv", knownFolder);
    fake.addFile("notes.txt", newFolder);
    fake.addFile("Elsewhere.mkv", other);
    const trashedFolder = fake.addFolder("Gone (1999)", movies);
    const trashed = fake.addFile("Gone (1999).mkv", trashedFolder);
    fake.trash(trashed);

    await advanceUntil(clock, () => t!.plex.refreshes.length >= 1, "the new file's scan");
    // One more poll sees every change above; what it queued is all that will ever reach Plex.
    await t.service.drive?.pollNow();
    await deliveriesSettled(t);
    expect(storedScans(t)).toEqual([{ folder: "/data/Movies/New (2020)", state: "done" }]);
    expect(t.plex.refreshes).toEqual([{ sectionId: "1", path: "/data/Movies/New (2020)" }]);
  });
});
