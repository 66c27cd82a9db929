import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import type { CheckResult } from "../../src/doctor/types.js";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";
import { startFakeOAuth, type FakeOAuth } from "../fakes/oauth.js";
import { startFakePlex, type FakePlex, type FakeSection } from "../fakes/plex.js";
import { runCli } from "../helpers/cli.js";
import { addEncryptedFile, writeDriveRemoteConf } from "../helpers/rclone-drive.js";
import { hasRclone } from "../rclone/rclone-cli.js";
import { installFor, PASS } from "./helpers.js";

const CLIENT = { clientId: "remote-own-client.apps.googleusercontent.com", clientSecret: "remote-own-secret" };
const MEDIA: FakeSection[] = [
  { key: "1", title: "Movies", type: "movie", locations: ["/data/Media/Movies"] },
  { key: "2", title: "TV Shows", type: "show", locations: ["/data/Media/TV"] },
];

let drive: FakeDrive | undefined;
let oauth: FakeOAuth | undefined;
let plex: FakePlex | undefined;
afterEach(async () => {
  await Promise.all([drive?.close(), oauth?.close(), plex?.close()]);
  drive = oauth = plex = undefined;
});

/** Plex with `sections`, Google's fakes, and rclone.conf with `gcrypt` over `gdrive:encrypt` holding one encrypted episode. */
async function cryptWorld(sections: FakeSection[]) {
  plex = await startFakePlex({ sections });
  const google = await startFakeDrive();
  drive = google;
  oauth = await startFakeOAuth(CLIENT, (token) => google.accessTokens.add(token));
  const conf = writeDriveRemoteConf({ client: CLIENT, refreshToken: oauth.seedRefreshToken() });
  const [episode] = conf.encode(["Media/TV/Show/Season 1/Show - S01E01.mkv"]);
  google.seed(() => addEncryptedFile(google, google.addFolder("encrypt"), episode!));
  const base = defaultConfig(PASS);
  const cloud = (filePaths: string[]): Partial<Config> => ({
    CLOUD: {
      ...base.CLOUD,
      ENABLED: true,
      RCLONE_REMOTE: "gcrypt:",
      TOKEN_URL: oauth!.tokenUrl,
      API_URL: google.url,
      ALLOWED: { ...base.CLOUD.ALLOWED, FILE_PATHS: filePaths },
    },
    RCLONE: { ...base.RCLONE, CONFIG: conf.file },
  });
  return { plex, cloud };
}

async function doctor(plexWorld: FakePlex, overrides: Partial<Config>) {
  const { dir } = await installFor(plexWorld.url, plexWorld.token, overrides);
  const run = await runCli(["--install-dir", dir, "doctor", "--json"]);
  return { ...run, dir, checks: (JSON.parse(run.stdout) as { checks: CheckResult[] }).checks };
}

describe.skipIf(!hasRclone)("doctor: the drive folders monitoring watches map to a library", () => {
  it("fails the crypt folder left out of SERVER_PATH_MAPPINGS with the key to add, and passes once it is there", async () => {
    const world = await cryptWorld(MEDIA);
    const watched = world.cloud(["My Drive/encrypt/Media/"]);
    const without = await doctor(world.plex, { ...watched, SERVER_PATH_MAPPINGS: { "/data/Media/": ["/mnt/unionfs/Media/"] } });
    const line = without.checks.find((c) => c.name === "drive path My Drive/encrypt/Media/");
    expect(line).toEqual({
      name: "drive path My Drive/encrypt/Media/",
      ok: false,
      detail:
        'drive monitoring finds files in My Drive/encrypt/Media/, but no SERVER_PATH_MAPPINGS entry maps it, so none of them is scanned: add "/data/Media/": ["My Drive/encrypt/Media/"] to SERVER_PATH_MAPPINGS',
    });
    expect(without.code).toBe(1);

    const mapped = { "/data/Media/": ["/mnt/unionfs/Media/", "My Drive/encrypt/Media/"] };
    const withIt = await doctor(world.plex, { ...watched, SERVER_PATH_MAPPINGS: mapped });
    expect(withIt.checks.find((c) => c.name.startsWith("drive path"))).toEqual({
      name: "drive path My Drive/encrypt/Media/",
      ok: true,
      detail: "My Drive/encrypt/Media/ maps to /data/Media/, holds Movies (plex), holds TV Shows (plex)",
    });
    // The drive lines (rclone.conf, token, decoding) pass both times: only the mapping tells them apart.
    expect(without.checks.filter((c) => c.name === "drive").every((c) => c.ok)).toBe(true);
  });

  it("checks the crypt remote's decoded root when FILE_PATHS is empty, with a placeholder when no library folder shares a name", async () => {
    const world = await cryptWorld([{ key: "2", title: "TV Shows", type: "show", locations: ["/data/TV-Shows"] }]);
    const { checks } = await doctor(world.plex, { ...world.cloud([]), SERVER_PATH_MAPPINGS: { "/data/TV-Shows/": ["/tv/"] } });
    expect(checks.find((c) => c.name.startsWith("drive path"))).toEqual({
      name: "drive path My Drive/encrypt/",
      ok: false,
      detail:
        'drive monitoring finds files in My Drive/encrypt/, but no SERVER_PATH_MAPPINGS entry maps it, so none of them is scanned: add "/path/on/the/server/": ["My Drive/encrypt/"] to SERVER_PATH_MAPPINGS, with the folder your media servers see My Drive/encrypt/ as in place of /path/on/the/server/ (no library folder shares a folder name with it)',
    });
  });

  it("fails a FILE_PATHS entry outside the crypt remote's folder, and passes one mapped folder by folder", async () => {
    const world = await cryptWorld(MEDIA);
    const { checks } = await doctor(world.plex, {
      ...world.cloud(["My Drive/Media/TV/", "My Drive/encrypt/Media/"]),
      SERVER_PATH_MAPPINGS: {
        "/data/Media/TV/": ["My Drive/encrypt/Media/TV/"],
        "/data/Media/Movies/": ["My Drive/encrypt/Media/Movies/"],
      },
    });
    expect(checks.filter((c) => c.name.startsWith("drive path"))).toEqual([
      {
        name: "drive path My Drive/encrypt/Media/",
        ok: true,
        detail:
          "My Drive/encrypt/Media/ maps folder by folder through SERVER_PATH_MAPPINGS: My Drive/encrypt/Media/TV/ -> /data/Media/TV/, My Drive/encrypt/Media/Movies/ -> /data/Media/Movies/",
      },
      {
        name: "drive path My Drive/Media/TV/",
        ok: false,
        detail:
          "My Drive/Media/TV/ is outside the folder CLOUD.RCLONE_REMOTE watches (My Drive/encrypt/), so no file under it is ever found",
      },
    ]);
  });

  it("adds no line with drive monitoring off", async () => {
    plex = await startFakePlex({ sections: MEDIA });
    const { checks } = await doctor(plex, {});
    expect(checks.filter((c) => c.name.startsWith("drive path"))).toEqual([]);
  });
});

describe("scanarr map of a drive path no mapping takes", () => {
  it("names the key to add, in the doctor's words", async () => {
    plex = await startFakePlex({ sections: MEDIA });
    const base = defaultConfig(PASS);
    const { dir } = await installFor(plex.url, plex.token, {
      CLOUD: { ...base.CLOUD, ALLOWED: { ...base.CLOUD.ALLOWED, FILE_PATHS: ["My Drive/encrypt/Media/"] } },
      SERVER_PATH_MAPPINGS: { "/data/Media/": ["/mnt/unionfs/Media/"] },
    });
    const { code, stdout } = await runCli(["--install-dir", dir, "map", "My Drive/encrypt/Media/TV/Show/Season 1/Show - S01E01.mkv"]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'error    path "My Drive/encrypt/Media/TV/Show/Season 1/Show - S01E01.mkv" is relative and matches no cloud-drive prefix in SERVER_PATH_MAPPINGS',
    );
    expect(stdout).toContain('fix      add "/data/Media/": ["My Drive/encrypt/Media/"] to SERVER_PATH_MAPPINGS');
  });
});

describe.skipIf(!hasRclone)("doctor in plex_autoscan's RCLONE.CRYPT_MAPPINGS mode", () => {
  it("names the crypt remote it found for each prefix and what it is over", async () => {
    const world = await cryptWorld(MEDIA);
    const watched = world.cloud(["My Drive/encrypt/Media/"]);
    const cloud = { ...watched.CLOUD!, RCLONE_REMOTE: "", CLIENT_ID: CLIENT.clientId, CLIENT_SECRET: CLIENT.clientSecret };
    const rclone = { ...watched.RCLONE!, CRYPT_MAPPINGS: { "My Drive/encrypt/": ["gcrypt:"] } };
    const run = await doctor(world.plex, {
      CLOUD: cloud,
      RCLONE: rclone,
      SERVER_PATH_MAPPINGS: { "/data/Media/": ["My Drive/encrypt/Media/"] },
    });
    expect(run.checks.filter((c) => c.name === "drive" && c.detail.startsWith("RCLONE.CRYPT_MAPPINGS"))).toEqual([
      {
        name: "drive",
        ok: true,
        detail: `RCLONE.CRYPT_MAPPINGS: drive paths under "My Drive/encrypt/" are decoded with crypt remote "gcrypt" (over "gdrive:encrypt"), found in ${rclone.CONFIG}`,
      },
    ]);
  });
});
