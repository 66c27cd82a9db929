import { generateKeyPairSync } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { driveCheck } from "../../src/doctor/drive-check.js";
import { memoLibraries } from "../../src/doctor/run.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";
import { startFakeOAuth, type FakeOAuth } from "../fakes/oauth.js";
import { tempDir } from "../helpers/cli.js";
import { addEncryptedFile, writeDriveRemoteConf, type DriveRemoteConf } from "../helpers/rclone-drive.js";
import { hasRclone } from "../rclone/rclone-cli.js";
import { PASS } from "./helpers.js";

const CLIENT = { clientId: "remote-own-client.apps.googleusercontent.com", clientSecret: "remote-own-secret" };

let drive: FakeDrive;
let oauth: FakeOAuth;
afterEach(async () => {
  await drive?.close();
  await oauth?.close();
});

async function doctorOn(conf: DriveRemoteConf, remote = "gcrypt:", env: NodeJS.ProcessEnv = {}) {
  const base = defaultConfig(PASS);
  const config: Config = {
    ...base,
    CLOUD: { ...base.CLOUD, ENABLED: true, RCLONE_REMOTE: remote, TOKEN_URL: oauth.tokenUrl, API_URL: drive.url },
    RCLONE: { ...base.RCLONE, CONFIG: conf.file },
  };
  const paths = resolveInstallPaths(tempDir());
  const results = await driveCheck.run({
    config,
    paths,
    env: { ...conf.env, ...env },
    unmet: [],
    targets: [],
    libraries: memoLibraries([]),
  });
  return { results, paths };
}

async function startGoogle(): Promise<void> {
  drive = await startFakeDrive();
  oauth = await startFakeOAuth(CLIENT, (token) => drive.accessTokens.add(token));
}

describe.skipIf(!hasRclone)("doctor's drive check with CLOUD.RCLONE_REMOTE", () => {
  it("finds the crypt remote over its drive remote, refreshes its token without writing anything, and decodes names of its folder", async () => {
    await startGoogle();
    const conf = writeDriveRemoteConf({ client: CLIENT, refreshToken: oauth.seedRefreshToken(), configPassword: "conf pass" });
    const [a, b] = conf.encode(["Media/TV/Show/Season 1/a.mkv", "Media/Movies/b.mkv"]);
    drive.seed(() => {
      const folder = drive.addFolder("encrypt");
      addEncryptedFile(drive, folder, a!);
      addEncryptedFile(drive, folder, b!);
    });
    const bytes = readFileSync(conf.file);
    const { results, paths } = await doctorOn(conf);
    expect(results.map((r) => [r.ok, r.detail])).toEqual([
      [true, `crypt remote "gcrypt" over drive remote "gdrive", folder "encrypt" found in ${conf.file}`],
      [true, `remote "gdrive"'s token refreshes with its own client id and Google Drive answers (rclone.conf is not written)`],
      [
        true,
        'crypt remote "gcrypt" decodes 1 of 1 names in "gdrive:encrypt"; CLOUD.ALLOWED.MIME_TYPES is not applied to crypt files (Drive calls them application/octet-stream), FILE_EXTENSIONS applies to their decoded names',
      ],
    ]);
    expect(oauth.tokenCalls.map((c) => c.params.client_id)).toEqual([CLIENT.clientId]);
    expect(readFileSync(conf.file).equals(bytes)).toBe(true);
    expect(() => statSync(paths.remoteTokenFile)).toThrow(/ENOENT/);
  });

  it("fails when the crypt passwords decode none of the folder's names", async () => {
    await startGoogle();
    const written = writeDriveRemoteConf({ client: CLIENT, cryptPassword: "the password the files were written with" });
    const [a] = written.encode(["Media/a.mkv"]);
    drive.seed(() => addEncryptedFile(drive, drive.addFolder("encrypt"), a!));
    const conf = writeDriveRemoteConf({ client: CLIENT, refreshToken: oauth.seedRefreshToken() });
    const { results } = await doctorOn(conf);
    expect(results.at(-1)).toEqual({
      name: "drive",
      ok: false,
      detail: expect.stringContaining(
        'none of 1 names in the crypt folder "gdrive:encrypt" decode with crypt remote "gcrypt"\'s passwords',
      ),
    });
  });

  it("tells to reconnect the rclone remote, not to run scanarr authorize, when Google refuses its refresh token", async () => {
    await startGoogle();
    const conf = writeDriveRemoteConf({ client: CLIENT, refreshToken: "1//0g-revoked" });
    const last = (await doctorOn(conf)).results.at(-1);
    expect(last?.ok).toBe(false);
    expect(last?.detail).toMatch(
      /^Google no longer accepts remote "gdrive"'s refresh token \(invalid_grant\): run `rclone config reconnect gdrive:`, then restart scanarr\./,
    );
    expect(last?.detail).not.toContain("scanarr authorize");
  });

  it("uses the remote's service_account_file ($VAR expanded as rclone does) instead of a client id", async () => {
    await startGoogle();
    const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
    oauth.addServiceAccount("sa@test.iam", keys.publicKey.export({ type: "spki", format: "pem" }).toString());
    const dir = tempDir();
    const key = {
      type: "service_account",
      client_email: "sa@test.iam",
      private_key: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    };
    writeFileSync(path.join(dir, "sa.json"), JSON.stringify(key));
    const conf = writeDriveRemoteConf({ driveKeys: { service_account_file: "${SA_DIR}/sa.json" } });
    drive.seed(() => drive.addFolder("encrypt"));
    const { results } = await doctorOn(conf, "gcrypt:", { SA_DIR: dir });
    expect(results.map((r) => [r.ok, r.detail])).toEqual([
      [true, `crypt remote "gcrypt" over drive remote "gdrive", folder "encrypt" found in ${conf.file}`],
      [true, `remote "gdrive"'s service account can read Google Drive`],
      [true, expect.stringMatching(/^the crypt folder "gdrive:encrypt" is empty: no name to decode yet/)],
    ]);
    expect(oauth.tokenCalls.map((c) => c.grantType)).toEqual(["urn:ietf:params:oauth:grant-type:jwt-bearer"]);
  });

  it("names the remotes there are when the remote is missing, and refuses rclone's shared client id", async () => {
    await startGoogle();
    const conf = writeDriveRemoteConf({ refreshToken: oauth.seedRefreshToken() });
    expect((await doctorOn(conf, "media:")).results).toEqual([
      { name: "drive", ok: false, detail: 'CLOUD.RCLONE_REMOTE: there is no remote "media" in the rclone config (it has gdrive, gcrypt).' },
    ]);
    const shared = (await doctorOn(conf)).results.at(-1);
    expect(shared?.ok).toBe(false);
    expect(shared?.detail).toMatch(
      /^rclone remote "gdrive" has no client id of its own: it uses rclone's shared client id, whose quota Google throttles/,
    );
    expect(oauth.tokenCalls).toEqual([]);
  });
});
