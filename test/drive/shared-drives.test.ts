import { afterEach, describe, expect, it } from "vitest";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";
import { startHarness, testConfig, type Harness } from "./harness.js";

describe("drive monitor: shared drives", () => {
  let fake: FakeDrive;
  let h: Harness;
  afterEach(async () => {
    await h.close();
    await fake.close();
  });

  async function start(teamDrives: string[]): Promise<{ team: string; media: string }> {
    fake = await startFakeDrive();
    let team = "";
    let media = "";
    fake.seed(() => {
      team = fake.addDrive("Team Media");
      fake.addDrive("Other Team");
      media = fake.addFolderPath("Media/Movies", team);
    });
    h = await startHarness(
      testConfig({
        TEAMDRIVE: true,
        TEAMDRIVES: teamDrives,
        ALLOWED: { ...testConfig().CLOUD.ALLOWED, FILE_PATHS: ["Team Media/Media/"] },
      }),
      fake,
    );
    await h.poll();
    return { team, media };
  }

  it("names paths in a shared drive by the drive's name and reads that drive's own change log", async () => {
    const { team, media } = await start(["Team Media"]);
    fake.addFile("s.mkv", fake.addFolder("S (2020)", media));
    await h.poll();
    expect(h.sink.folders).toEqual(["/data/Shared/Movies/S (2020)"]);
    const driveLog = fake.requests.filter((r) => r.endpoint === "changes.list" && r.query.driveId === team);
    expect(driveLog).toHaveLength(1);
    expect(driveLog[0]?.query).toMatchObject({ pageSize: "1000", supportsAllDrives: "true", includeItemsFromAllDrives: "true" });
  });

  it("accepts a shared drive by id as well as by name, and warns about one it cannot see", async () => {
    fake = await startFakeDrive();
    const team = fake.addDrive("Team Media");
    h = await startHarness(testConfig({ TEAMDRIVE: true, TEAMDRIVES: [team, "Nope"] }), fake);
    await h.poll();
    expect(h.db.prepare("SELECT log_key, root_name FROM drive_logs ORDER BY log_key").all()).toEqual([
      { log_key: team, root_name: "Team Media" },
      { log_key: "my-drive", root_name: "My Drive" },
    ]);
    expect(h.logs.messages(40)).toContain("CLOUD.TEAMDRIVES names a shared drive this account cannot see; skipping it");
  });

  it("uses a shared drive's new name for later files after the drive is renamed", async () => {
    const { team, media } = await start(["Team Media"]);
    fake.renameDrive(team, "Team Films");
    fake.addFile("r.mkv", fake.addFolder("R (2020)", media));
    await h.poll();
    expect(h.sink.folders).toEqual([]); // "Team Films/Media/..." is outside FILE_PATHS and the mappings
    expect(h.logs.messages(30)).toContain("Shared drive renamed; new paths use its new name");
    expect(h.db.prepare("SELECT root_name FROM drive_logs WHERE log_key = ?").get(team)).toEqual({ root_name: "Team Films" });
  });

  it("queues a file moved from My Drive into a watched shared drive once, at its new path", async () => {
    const { media } = await start(["Team Media"]);
    let file = "";
    fake.seed(() => {
      file = fake.addFile("moved.mkv", fake.addFolderPath("Inbox"));
    });
    const target = fake.addFolder("Moved (2020)", media);
    fake.move(file, target);
    await h.poll();
    expect(h.sink.folders).toEqual(["/data/Shared/Movies/Moved (2020)"]);
  });

  it("watches no shared drive when TEAMDRIVE is off, even if TEAMDRIVES lists some", async () => {
    fake = await startFakeDrive();
    fake.addDrive("Team Media");
    h = await startHarness(testConfig({ TEAMDRIVE: false, TEAMDRIVES: ["Team Media"] }), fake);
    await h.poll();
    expect(fake.calls["drives.list"]).toBe(0);
    expect(h.db.prepare("SELECT count(*) AS n FROM drive_logs").get()).toEqual({ n: 1 });
  });
});
