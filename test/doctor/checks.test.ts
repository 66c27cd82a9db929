import { withPlexEntry } from "../../src/config/plex-entry.js";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeToken } from "../../src/auth/token-store.js";
import { defaultConfig, withTargetDefaults } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { driveCheck } from "../../src/doctor/drive-check.js";
import { plexDatabaseCheck } from "../../src/doctor/plex-database-check.js";
import { memoLibraries } from "../../src/doctor/run.js";
import { targetsCheck } from "../../src/doctor/targets-check.js";
import type { DoctorContext } from "../../src/doctor/types.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { silentLogger } from "../../src/lib/logger.js";
import { buildTargets } from "../../src/targets/build-targets.js";
import { startFakeArrTarget } from "../fakes/arr-target.js";
import { startFakeJellyfin } from "../fakes/jellyfin.js";
import { startFakeTdarr } from "../fakes/tdarr.js";
import { startFakeOAuth, type FakeOAuth } from "../fakes/oauth.js";
import { startFakePlex } from "../fakes/plex.js";
import { CLIENT } from "../auth/harness.js";
import { tempDir } from "../helpers/cli.js";
import { buildPlexDb } from "../scan/helpers/plex-db.js";

function contextFor(config: Config): DoctorContext {
  return { config: withPlexEntry(config), paths: resolveInstallPaths(tempDir()), unmet: [], targets: [], libraries: memoLibraries([]) };
}

describe("doctor: the Plex database", () => {
  it("reads the libraries of a real-shaped database", async () => {
    const file = buildPlexDb([{ id: 2, name: "TV Shows", type: 2, locations: ["/data/TV-Shows"] }]);
    const [result] = await plexDatabaseCheck.run(
      contextFor({ ...defaultConfig("x"), PLEX_DATABASE_PATH: file, CLOUD: { ...defaultConfig("x").CLOUD, ENABLED: true } }),
    );
    expect(result).toEqual({ name: "plex database", ok: true, detail: `${file} is readable (1 library)` });
  });

  it("fails a file that is not a database when drive monitoring reads it, and only notes it otherwise", async () => {
    const file = path.join(tempDir(), "library.db");
    writeFileSync(file, "not sqlite");
    const base = { ...defaultConfig("x"), PLEX_DATABASE_PATH: file };
    const [needed] = await plexDatabaseCheck.run(contextFor({ ...base, CLOUD: { ...base.CLOUD, ENABLED: true } }));
    expect(needed).toMatchObject({ ok: false, detail: expect.stringContaining(`${file} cannot be read`) });
    const [missing] = await plexDatabaseCheck.run(contextFor({ ...base, PLEX_DATABASE_PATH: `${file}.gone`, PLEX_SCAN_METHOD: "scanner" }));
    expect(missing).toMatchObject({ ok: false, detail: expect.stringContaining("not found, but the scanner method reads it") });
    const [unused] = await plexDatabaseCheck.run(contextFor({ ...base, PLEX_DATABASE_PATH: `${file}.gone` }));
    expect(unused).toMatchObject({ ok: true, detail: expect.stringContaining("not needed") });
  });
});

describe("doctor: the drive token", () => {
  let fake: FakeOAuth;
  beforeEach(async () => {
    fake = await startFakeOAuth(CLIENT);
  });
  afterEach(async () => {
    await fake.close();
  });

  function driveConfig(): Config {
    const base = defaultConfig("x");
    return {
      ...base,
      CLOUD: {
        ...base.CLOUD,
        ENABLED: true,
        CLIENT_ID: CLIENT.clientId,
        CLIENT_SECRET: CLIENT.clientSecret,
        TOKEN_URL: fake.tokenUrl,
        API_URL: fake.apiUrl,
      },
    };
  }

  it("refreshes the stored token, reaches Drive with it and leaves the file as it was", async () => {
    const ctx = contextFor(driveConfig());
    await writeToken(ctx.paths.tokenFile, {
      access_token: "old",
      refresh_token: fake.seedRefreshToken(),
      expiry_date: 0,
      token_type: "Bearer",
    });
    const before = readFileSync(ctx.paths.tokenFile, "utf8");
    const [result] = await driveCheck.run(ctx);
    expect(result).toEqual({
      name: "drive",
      ok: true,
      detail: `the token in ${ctx.paths.tokenFile} refreshes and Google Drive answers with it`,
    });
    expect(fake.tokenCalls.map((c) => c.grantType)).toEqual(["refresh_token"]);
    expect(readFileSync(ctx.paths.tokenFile, "utf8")).toBe(before);
  });

  it("explains a refused refresh token with the 7-day Testing advice", async () => {
    const ctx = contextFor(driveConfig());
    await writeToken(ctx.paths.tokenFile, { access_token: "old", refresh_token: "1//revoked", expiry_date: 0, token_type: "Bearer" });
    const [result] = await driveCheck.run(ctx);
    expect(result?.ok).toBe(false);
    expect(result?.detail).toMatch(/no longer accepts the stored refresh token \(invalid_grant.*"Testing".*7 days/);
  });

  it("says to authorize when there is no token yet, and passes when monitoring is off", async () => {
    const ctx = contextFor(driveConfig());
    expect(await driveCheck.run(ctx)).toEqual([{ name: "drive", ok: false, detail: expect.stringContaining("run `scanarr authorize`") }]);
    expect(await driveCheck.run(contextFor(defaultConfig("x")))).toEqual([
      { name: "drive", ok: true, detail: expect.stringContaining("off") },
    ]);
  });
});

describe("doctor: the targets", () => {
  it("checks every target serve delivers to, proving access where the target can", async () => {
    const plex = await startFakePlex();
    const jellyfin = await startFakeJellyfin();
    try {
      const base = defaultConfig("x");
      const config: Config = {
        ...base,
        PLEX_LOCAL_URL: plex.url,
        PLEX_TOKEN: plex.token,
        TARGETS: [withTargetDefaults({ TYPE: "jellyfin", NAME: "jf", URL: jellyfin.url, TOKEN: jellyfin.token })],
      };
      const targets = await buildTargets(withPlexEntry(config), { logger: silentLogger() });
      const results = await targetsCheck.run({ ...contextFor(config), targets, libraries: memoLibraries(targets) });
      expect(results).toEqual([
        { name: "target plex", ok: true, detail: expect.stringMatching(/^reachable at http:.*, token accepted, admin; \d+ libraries/) },
        { name: "target jf", ok: true, detail: expect.stringMatching(/^reachable at http:.*; 3 libraries: Movies/) },
      ]);
    } finally {
      await Promise.all([plex.close(), jellyfin.close()]);
    }
  });

  it("proves Tdarr's status, the Sonarr/Radarr app and key, and the command's program", async () => {
    const tdarr = await startFakeTdarr({ apiKey: "tapi_doctor_1234" });
    const radarrAtSonarrUrl = await startFakeArrTarget({ kind: "radarr", rootFolders: ["/movies"], items: [] });
    const sonarr = await startFakeArrTarget({ kind: "sonarr", rootFolders: ["/tv", "/anime"], items: [] });
    try {
      const config: Config = {
        ...defaultConfig("x"),
        PLEX_ENABLED: false,
        TARGETS: [
          withTargetDefaults({ TYPE: "tdarr", NAME: "tdarr", URL: tdarr.url, TOKEN: "tapi_doctor_1234", LIBRARY_ID: "lib-tv" }),
          withTargetDefaults({ TYPE: "sonarr", NAME: "sonarr", URL: sonarr.url, TOKEN: sonarr.apiKey }),
          withTargetDefaults({ TYPE: "sonarr", NAME: "wrong-app", URL: radarrAtSonarrUrl.url, TOKEN: radarrAtSonarrUrl.apiKey }),
          withTargetDefaults({ TYPE: "command", NAME: "gone", COMMAND: ["/nonexistent/on-scan.sh", "{folder}"] }),
        ],
      };
      const targets = await buildTargets(withPlexEntry(config), { logger: silentLogger(), env: { PATH: "/usr/bin:/bin" } });
      const results = await targetsCheck.run({ ...contextFor(config), targets, libraries: memoLibraries(targets) });
      expect(results).toEqual([
        {
          name: "target tdarr",
          ok: true,
          detail: expect.stringMatching(/^reachable at http:.*, Tdarr 2\.58\.02 answers; 1 library: all folders/),
        },
        {
          name: "target sonarr",
          ok: true,
          detail: `reachable at ${sonarr.url}, Sonarr 4.0.15.2941 takes the API key; 2 libraries: /tv (/tv), /anime (/anime)`,
        },
        { name: "target wrong-app", ok: false, detail: expect.stringContaining("is Radarr, not Sonarr; check the URL and TYPE") },
        { name: "target gone", ok: false, detail: expect.stringContaining("the program /nonexistent/on-scan.sh was not found") },
      ]);
    } finally {
      await Promise.all([tdarr.close(), sonarr.close(), radarrAtSonarrUrl.close()]);
    }
  });
});
