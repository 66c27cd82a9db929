import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withTargetDefaults } from "../../src/config/defaults.js";
import type { TargetConfig } from "../../src/config/types.js";
import type { CheckResult } from "../../src/doctor/types.js";
import { startFakeAutoscan, type FakeAutoscan } from "../fakes/autoscan.js";
import { startFakeEmby, type FakeEmby } from "../fakes/emby.js";
import { startFakeJellyfin, type FakeJellyfin } from "../fakes/jellyfin.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { runCli } from "../helpers/cli.js";
import { installFor } from "../doctor/helpers.js";

// Plex sees /data/TV-Shows and /data/Movies; Jellyfin and Emby run in containers that mount them under /media.
let plex: FakePlex;
let jellyfin: FakeJellyfin;
let emby: FakeEmby;
let autoscan: FakeAutoscan;
beforeAll(async () => {
  plex = await startFakePlex();
  jellyfin = await startFakeJellyfin({
    libraries: [{ name: "Shows", id: "j1", collectionType: "tvshows", locations: ["/media/TV-Shows"] }],
  });
  emby = await startFakeEmby();
  autoscan = await startFakeAutoscan({ username: "scan", password: "autoscan-pass-123" });
});
afterAll(async () => {
  await Promise.all([plex.close(), jellyfin.close(), emby.close(), autoscan.close()]);
});

const jellyfinEntry = (over: Partial<TargetConfig> = {}) =>
  withTargetDefaults({
    TYPE: "jellyfin",
    NAME: "jellyfin",
    URL: jellyfin.url,
    TOKEN: jellyfin.token,
    PATH_MAPPINGS: { "/media/TV-Shows/": ["/data/TV-Shows/"] },
    ...over,
  });

async function doctorWith(targets: TargetConfig[]): Promise<{ code: number; stdout: string; checks: CheckResult[] }> {
  const { dir } = await installFor(plex.url, plex.token, { SERVER_PATH_MAPPINGS: { "/data/TV-Shows/": ["/tv/"] }, TARGETS: targets });
  const text = await runCli(["--install-dir", dir, "doctor"]);
  const json = await runCli(["--install-dir", dir, "doctor", "--json"]);
  for (const secret of [jellyfin.token, jellyfin.userToken, emby.token, "autoscan-pass-123"])
    expect(text.stdout + json.stdout).not.toContain(secret);
  return { code: text.code, stdout: text.stdout, checks: (JSON.parse(json.stdout) as { checks: CheckResult[] }).checks };
}

const failing = (checks: CheckResult[]) => checks.filter((c) => !c.ok);

describe("scanarr doctor checks every target of TARGETS like the Plex one", () => {
  it("passes a Jellyfin and an Emby whose keys may scan and whose mappings land in their libraries, proving it with an empty Media/Updated", async () => {
    const before = { updates: jellyfin.mediaUpdates.length, empty: jellyfin.emptyUpdates, emby: emby.emptyUpdates };
    const embyEntry = withTargetDefaults({
      TYPE: "emby",
      NAME: "emby",
      URL: emby.url,
      TOKEN: emby.token,
      PATH_MAPPINGS: { "/media/TV-Shows/": ["/data/TV-Shows/"] },
    });
    const { code, checks } = await doctorWith([jellyfinEntry(), embyEntry]);
    expect(failing(checks)).toEqual([]);
    expect(code).toBe(0);
    expect(checks.find((c) => c.name === "target jellyfin")?.detail).toMatch(
      /^reachable at http:\/\/127\.0\.0\.1:\d+, API key accepted for scans; no targeted-scans plugin; scans refresh the nearest folder Jellyfin knows at once .*; 1 library: Shows/,
    );
    // The access check is the scan call itself, naming nothing to look at (doctor ran twice: text and JSON).
    expect(jellyfin.emptyUpdates - before.empty).toBe(2);
    expect(jellyfin.mediaUpdates.length).toBe(before.updates);
    expect(emby.emptyUpdates - before.emby).toBe(2);
    expect(checks.find((c) => c.name === "target emby")?.detail).toMatch(
      /^reachable at http:.*\/emby, API key accepted for scans; scans refresh the nearest folder Emby knows at once .*; 3 libraries/,
    );
    expect(checks.find((c) => c.name === "mapping /data/TV-Shows/")?.detail).toBe(
      "/data/TV-Shows/ is inside TV Shows (plex: /data/TV-Shows), inside Shows (jellyfin: /media/TV-Shows), inside Shows (emby: /media/TV-Shows)",
    );
    expect(checks.find((c) => c.name === "mapping jellyfin /media/TV-Shows/")).toEqual({
      name: "mapping jellyfin /media/TV-Shows/",
      ok: true,
      detail: 'TARGETS[0].PATH_MAPPINGS["/media/TV-Shows/"]: /media/TV-Shows/ is inside Shows (jellyfin: /media/TV-Shows)',
    });
  });

  it("fails a wrong Jellyfin key, a user's Jellyfin token, a wrong Emby key and a wrong autoscan password, each naming its key", async () => {
    const { code, checks } = await doctorWith([
      jellyfinEntry({ NAME: "jf-wrong", TOKEN: "not-the-key" }),
      jellyfinEntry({ NAME: "jf-user", TOKEN: jellyfin.userToken }),
      withTargetDefaults({ TYPE: "emby", NAME: "emby", URL: emby.url, TOKEN: "not-the-key" }),
      withTargetDefaults({ TYPE: "autoscan", NAME: "autoscan", URL: autoscan.url, USERNAME: "scan", PASSWORD: "wrong-pass" }),
    ]);
    expect(code).toBe(1);
    const detail = (name: string) => checks.find((c) => c.name === `target ${name}`);
    expect(detail("jf-wrong")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/refused the credential \(401\).*TARGETS\[0\]\.TOKEN/),
    });
    expect(detail("jf-user")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/answered 403 .*lacks the rights.*TARGETS\[1\]\.TOKEN/),
    });
    expect(detail("emby")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/refused the credential \(401\).*TARGETS\[2\]\.TOKEN/),
    });
    expect(detail("autoscan")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/refused the credential \(401\).*TARGETS\[3\]\.PASSWORD/),
    });
  });

  it("fails a mapping that lands in no library of Jellyfin although Plex holds it, and says which PATH_MAPPINGS would fix it", async () => {
    const { code, checks } = await doctorWith([jellyfinEntry({ PATH_MAPPINGS: {} })]);
    expect(code).toBe(1);
    expect(failing(checks)).toEqual([
      {
        name: "mapping /data/TV-Shows/",
        ok: false,
        detail:
          "/data/TV-Shows/ is inside TV Shows (plex: /data/TV-Shows), but no library of jellyfin holds it, so scans under it are skipped there: " +
          'jellyfin has Shows (/media/TV-Shows); if jellyfin sees this folder as /media/TV-Shows/, add {"/media/TV-Shows/":["/data/TV-Shows/"]} to TARGETS[0].PATH_MAPPINGS',
      },
    ]);
  });

  it("fails a target's own PATH_MAPPINGS key that is in none of its libraries", async () => {
    const { checks } = await doctorWith([jellyfinEntry({ PATH_MAPPINGS: { "/media/TV/": ["/data/TV-Shows/"] } })]);
    expect(failing(checks).map((c) => [c.name, c.detail])).toEqual([
      [
        "mapping /data/TV-Shows/",
        expect.stringMatching(/no library of jellyfin holds it.*jellyfin sees it as \/media\/TV\/ and has Shows/),
      ],
      [
        "mapping jellyfin /media/TV/",
        'TARGETS[0].PATH_MAPPINGS["/media/TV/"]: /media/TV/ is in no library of jellyfin, so scans mapped to it are skipped there; ' +
          'jellyfin has Shows (/media/TV-Shows); did you mean "/media/TV-Shows/"?',
      ],
    ]);
  });

  it("passes a target that holds only some of the mapped folders, saying the others skip it", async () => {
    const { dir } = await installFor(plex.url, plex.token, { TARGETS: [jellyfinEntry()] });
    const json = await runCli(["--install-dir", dir, "doctor", "--json"]);
    const checks = (JSON.parse(json.stdout) as { checks: CheckResult[] }).checks;
    expect(failing(checks)).toEqual([]);
    expect(checks.find((c) => c.name === "mapping /data/Movies/")?.detail).toBe(
      "/data/Movies/ is inside Movies (plex: /data/Movies); not in a library of jellyfin, so scans under it skip it (each holds other mapped folders)",
    );
  });
});

describe("scanarr map traces every target", () => {
  it("shows each target's own path and library, and which targets skip the path", async () => {
    const { dir } = await installFor(plex.url, plex.token, {
      TARGETS: [jellyfinEntry(), withTargetDefaults({ TYPE: "emby", NAME: "emby", URL: emby.url, TOKEN: emby.token })],
    });
    const { code, stdout } = await runCli(["--install-dir", dir, "map", "/tv/Show/Season 1/Show - S01E01.mkv"]);
    expect(code).toBe(0);
    expect(stdout).toContain("  plex     TV Shows (section 2, folder /data/TV-Shows)\n");
    expect(stdout).toContain("  jellyfin as /media/TV-Shows/Show/Season 1: Shows (section j1, folder /media/TV-Shows)\n");
    expect(stdout).toMatch(/ {2}emby {5}no library holds \/data\/TV-Shows\/Show\/Season 1; libraries: Movies \(\/media\/Movies\)/);
    expect(stdout).toContain("  result   scanned by plex, jellyfin; skipped by emby\n");
  });

  it("says a path no target scans is not scanned, and exits 1", async () => {
    const { dir } = await installFor(plex.url, plex.token, { TARGETS: [jellyfinEntry()] });
    const { code, stdout } = await runCli(["--install-dir", dir, "map", "/elsewhere/file.mkv"]);
    expect(code).toBe(1);
    expect(stdout).toContain("  result   not scanned: no target has a library holding it\n");
  });
});
