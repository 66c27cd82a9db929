import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { ManualClock } from "../../src/lib/clock.js";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";
import { startFakeOAuth, type FakeOAuth } from "../fakes/oauth.js";
import { tempDir } from "../helpers/cli.js";
import { addEncryptedFile, writeDriveRemoteConf, type DriveRemoteConf } from "../helpers/rclone-drive.js";
import {
  advanceUntil,
  deliveriesSettled,
  fakeDriveCloud,
  startTestService,
  storedScans,
  waitFor,
  TEST_PASS,
  writeFakeDriveToken,
  type TestService,
  type TestServiceOptions,
} from "../helpers/service.js";
import { hasRclone } from "../rclone/rclone-cli.js";

const CLIENT = { clientId: "remote-own-client.apps.googleusercontent.com", clientSecret: "remote-own-secret" };
const TV = [{ key: "2", title: "TV Shows", type: "show" as const, locations: ["/data/TV"] }];

let drive: FakeDrive | undefined;
let oauth: FakeOAuth | undefined;
let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  await drive?.close();
  await oauth?.close();
  t = undefined;
  drive = undefined;
  oauth = undefined;
});

/** serve watching `gcrypt:` from `conf` against the fakes, watching `filePaths`. */
function startThroughRemote(
  google: { drive: FakeDrive; oauth: FakeOAuth },
  conf: DriveRemoteConf,
  filePaths: string[],
  overrides: Partial<Config> = {},
  options: TestServiceOptions = {},
): Promise<TestService> {
  const cloud = fakeDriveCloud(google.drive.url, filePaths, 60);
  return startTestService(
    {
      CLOUD: { ...cloud, CLIENT_ID: "", CLIENT_SECRET: "", TOKEN_URL: google.oauth.tokenUrl, RCLONE_REMOTE: "gcrypt:" },
      RCLONE: { ...defaultConfig(TEST_PASS).RCLONE, CONFIG: conf.file },
      ...overrides,
    },
    { sections: TV, env: conf.env, ...options },
  );
}

/** The fake Drive answers to what the fake OAuth server issues for the remote's own client. */
async function startGoogle(): Promise<{ drive: FakeDrive; oauth: FakeOAuth }> {
  const d = await startFakeDrive();
  const o = await startFakeOAuth(CLIENT, (token) => d.accessTokens.add(token));
  drive = d;
  oauth = o;
  return { drive: d, oauth: o };
}

describe.skipIf(!hasRclone)("serve watching Drive through an rclone crypt remote", () => {
  it.each([
    ["a plain rclone.conf", undefined],
    ["an encrypted rclone.conf", "conf pässword"],
  ])("scans a new encrypted file as its decoded, mapped folder, once, from %s", async (_, configPassword) => {
    const google = await startGoogle();
    const conf = writeDriveRemoteConf({ client: CLIENT, refreshToken: google.oauth.seedRefreshToken(), configPassword });
    const [existing, added, notes] = conf.encode([
      "Media/TV/Old Show/Season 1/Old Show - S01E01.mkv",
      "Media/TV/New Show/Season 1/New Show - S01E01.mkv",
      "Media/TV/New Show/Season 1/notes.txt",
    ]);
    let cryptFolder = "";
    let plainTv = "";
    google.drive.seed(() => {
      cryptFolder = google.drive.addFolder("encrypt");
      addEncryptedFile(google.drive, cryptFolder, existing!);
      plainTv = google.drive.addFolderPath("Media/TV/Plain Show");
    });
    const confBytes = readFileSync(conf.file);
    const confMtime = statSync(conf.file).mtimeMs;
    const clock = new ManualClock(Date.now());
    t = await startThroughRemote(
      google,
      conf,
      ["My Drive/encrypt/Media/TV/", "My Drive/Media/TV/"],
      {
        SERVER_PATH_MAPPINGS: { "/data/TV/": ["My Drive/encrypt/Media/TV/", "My Drive/Media/TV/"] },
      },
      { clock },
    );
    await advanceUntil(clock, () => google.drive.calls["files.list"] >= 1, "the first poll");

    addEncryptedFile(google.drive, cryptFolder, added!);
    addEncryptedFile(google.drive, cryptFolder, notes!);
    google.drive.addFile("put-here-by-hand.mkv", cryptFolder);
    google.drive.addFile("Plain Show - S01E01.mkv", plainTv);

    await advanceUntil(clock, () => t!.plex.refreshes.length >= 1, "the new file's scan");
    await t.service.drive?.pollNow();
    await deliveriesSettled(t);
    expect(t.plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV/New Show/Season 1" }]);
    expect(storedScans(t)).toEqual([{ folder: "/data/TV/New Show/Season 1", state: "done" }]);

    // The expired token was refreshed with the remote's own client, kept by scanarr, and rclone.conf left alone.
    const refreshes = google.oauth.tokenCalls.filter((c) => c.grantType === "refresh_token");
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(refreshes[0]!.params.client_id).toBe(CLIENT.clientId);
    expect(readFileSync(conf.file).equals(confBytes)).toBe(true);
    expect(statSync(conf.file).mtimeMs).toBe(confMtime);
    await waitFor(
      () => {
        try {
          return JSON.parse(readFileSync(t!.paths.remoteTokenFile, "utf8")).access_token === google.oauth.issuedAccessTokens.at(-1);
        } catch {
          return false;
        }
      },
      5_000,
      "the refreshed token in scanarr's own store",
    );
    expect(statSync(t.paths.remoteTokenFile).mode & 0o777).toBe(0o600);

    // The hand-made name is skipped and logged once at debug, however often it is seen.
    await t.service.drive?.pollNow();
    const undecodable = t
      .logs()
      .split("\n")
      .filter((line) => line.includes("does not decode") && line.includes("put-here-by-hand.mkv"));
    expect(undecodable).toHaveLength(1);
    expect(JSON.parse(undecodable[0]!).level).toBe(20);
    expect(t.logs()).not.toContain(CLIENT.clientSecret);
  });

  it("watches only the remote's shared drive (team_drive), whose name starts the decoded path", async () => {
    const google = await startGoogle();
    let team = "";
    let cryptFolder = "";
    let myCrypt = "";
    google.drive.seed(() => {
      team = google.drive.addDrive("Team Media");
      cryptFolder = google.drive.addFolder("encrypt", team);
      myCrypt = google.drive.addFolder("encrypt");
    });
    const conf = writeDriveRemoteConf({ client: CLIENT, refreshToken: google.oauth.seedRefreshToken(), driveKeys: { team_drive: team } });
    const [added, mine] = conf.encode([
      "Media/TV/Team Show/Season 3/Team Show - S03E01.mkv",
      "Media/TV/My Show/Season 1/My Show - S01E01.mkv",
    ]);
    const clock = new ManualClock(Date.now());
    t = await startThroughRemote(
      google,
      conf,
      [],
      { SERVER_PATH_MAPPINGS: { "/data/TV/": ["Team Media/encrypt/Media/TV/", "My Drive/encrypt/Media/TV/"] } },
      { clock },
    );
    await advanceUntil(clock, () => google.drive.calls["files.list"] >= 1, "the first poll");
    addEncryptedFile(google.drive, cryptFolder, added!);
    addEncryptedFile(google.drive, myCrypt, mine!);
    await advanceUntil(clock, () => t!.plex.refreshes.length >= 1, "the shared drive file's scan");
    await t.service.drive?.pollNow();
    await deliveriesSettled(t);
    expect(t.plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV/Team Show/Season 3" }]);
    expect(google.drive.requests.filter((r) => r.endpoint === "changes.list").every((r) => r.query.driveId === team)).toBe(true);
  });

  it("holds the decoded file's scan until the mount shows the file (SERVER_MAX_FILE_CHECKS)", async () => {
    const google = await startGoogle();
    const conf = writeDriveRemoteConf({ client: CLIENT, refreshToken: google.oauth.seedRefreshToken() });
    const [added] = conf.encode(["Media/TV/New Show/Season 1/New Show - S01E01.mkv"]);
    let cryptFolder = "";
    google.drive.seed(() => {
      cryptFolder = google.drive.addFolder("encrypt");
    });
    const mount = tempDir();
    // The system clock: the mount checks time out on it, so a manual clock run fast would call the mount stalled.
    t = await startThroughRemote(google, conf, [], {
      SERVER_PATH_MAPPINGS: { "/data/TV/": ["My Drive/encrypt/Media/TV/"] },
      SERVER_MAX_FILE_CHECKS: 1000,
      SERVER_FILE_CHECK_DELAY: 1,
      SERVER_FILE_EXIST_PATH_MAPPINGS: { [`${mount}/TV/`]: ["/data/TV/"] },
    });
    // The first poll must have ended: a pollNow() while it runs joins it, and it reads no changes.
    await waitFor(() => t!.service.drive?.lastPoll() !== undefined, 10_000, "the first poll to end");
    addEncryptedFile(google.drive, cryptFolder, added!);
    await t.service.drive?.pollNow();
    await waitFor(() => fileChecksMade(t!) >= 2, 10_000, "two looks at the mount");
    expect(t.plex.refreshes).toEqual([]);

    const local = path.join(mount, "TV", "New Show", "Season 1");
    mkdirSync(local, { recursive: true });
    writeFileSync(path.join(local, "New Show - S01E01.mkv"), "video");
    await waitFor(() => t!.plex.refreshes.length >= 1, 10_000, "the scan once the mount shows the file");
    expect(t.plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV/New Show/Season 1" }]);
  });

  it("says to reconnect the rclone remote when Google refuses its refresh token", async () => {
    const google = await startGoogle();
    const conf = writeDriveRemoteConf({ client: CLIENT, refreshToken: "1//0g-revoked" });
    t = await startThroughRemote(google, conf, []);
    await waitFor(() => t!.service.drive?.lastPoll()?.ok === false, 10_000, "the first poll to fail");
    const failure = t
      .logs()
      .split("\n")
      .find((line) => line.includes("invalid_grant"));
    expect(failure).toContain("run `rclone config reconnect gdrive:`, then restart scanarr");
    expect(failure).not.toContain("scanarr authorize");
  });

  it("refuses a remote on rclone's shared client id, saying why, and calls nobody", async () => {
    const google = await startGoogle();
    const conf = writeDriveRemoteConf({ refreshToken: google.oauth.seedRefreshToken() });
    t = await startThroughRemote(google, conf, []);
    expect(t.service.drive).toBeUndefined();
    expect(t.logs()).toContain('rclone remote \\"gdrive\\" has no client id of its own: it uses rclone\'s shared client id');
    expect(t.logs()).toContain("https://rclone.org/drive/#making-your-own-client-id");
    expect(google.oauth.tokenCalls).toEqual([]);
    expect(Object.values(google.drive.calls).every((n) => n === 0)).toBe(true);
  });
});

describe.skipIf(!hasRclone)("serve with plex_autoscan's RCLONE.CRYPT_MAPPINGS", () => {
  it("decodes names under the mapped Drive prefix with the crypt remote's passwords, and reads other paths as they are", async () => {
    const fake = await startFakeDrive();
    drive = fake;
    const conf = writeDriveRemoteConf({ client: CLIENT });
    const [added] = conf.encode(["Media/TV/New Show/Season 2/New Show - S02E01.mkv"]);
    let cryptFolder = "";
    let plainTv = "";
    fake.seed(() => {
      cryptFolder = fake.addFolder("encrypt");
      plainTv = fake.addFolderPath("Media/TV/Plain Show");
    });
    const clock = new ManualClock(Date.now());
    t = await startTestService(
      {
        SERVER_PATH_MAPPINGS: { "/data/TV/": ["My Drive/encrypt/Media/TV/", "My Drive/Media/TV/"] },
        CLOUD: fakeDriveCloud(fake.url, ["My Drive/encrypt/Media/TV/", "My Drive/Media/TV/"], 60),
        RCLONE: { ...defaultConfig(TEST_PASS).RCLONE, CONFIG: conf.file, CRYPT_MAPPINGS: { "My Drive/encrypt/": ["gcrypt:"] } },
      },
      { sections: TV, clock, beforeStart: writeFakeDriveToken },
    );
    await advanceUntil(clock, () => fake.calls["files.list"] >= 1, "the first poll");
    addEncryptedFile(fake, cryptFolder, added!);
    fake.addFile("Plain Show - S01E01.mkv", plainTv);
    await advanceUntil(clock, () => t!.plex.refreshes.length >= 2, "both scans");
    await t.service.drive?.pollNow();
    await deliveriesSettled(t);
    expect(t.plex.refreshes.map((r) => r.path).sort()).toEqual(["/data/TV/New Show/Season 2", "/data/TV/Plain Show"]);
  });
});

/** How often the queue has looked for the scan's files so far. */
function fileChecksMade(service: TestService): number {
  const db = new Database(service.paths.database, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT COALESCE(MAX(file_checks), 0) AS n FROM scan_queue").get() as { n: number }).n;
  } finally {
    db.close();
  }
}
