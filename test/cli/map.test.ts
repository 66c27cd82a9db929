import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PathTrace } from "../../src/paths/trace.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { runCli } from "../helpers/cli.js";
import { installFor, PASS } from "../doctor/helpers.js";

let plex: FakePlex;
beforeAll(async () => {
  plex = await startFakePlex();
});
afterAll(async () => {
  await plex.close();
});

describe("scanarr map against a running Plex", () => {
  it("prints every step and the library, and exits 0 when every path lands in one", async () => {
    const { dir } = await installFor(plex.url, plex.token);
    const { code, stdout } = await runCli(["--install-dir", dir, "map", "/tv/Show/Season 1/Show - S01E01.mkv", "/movies/Film (2001)"]);
    expect(code).toBe(0);
    expect(stdout).toContain("/tv/ -> /data/TV-Shows/");
    expect(stdout).toContain("server   /data/TV-Shows/Show/Season 1/Show - S01E01.mkv");
    expect(stdout).toContain('file     ".mkv" is in the list of media file extensions');
    expect(stdout).toContain("scan     /data/TV-Shows/Show/Season 1");
    expect(stdout).toContain("plex     TV Shows (section 2, folder /data/TV-Shows)");
    expect(stdout).toContain("folder   its last part has no extension");
    expect(stdout).toContain("plex     Movies (section 1, folder /data/Movies)");
    expect(stdout).not.toContain(plex.token);
    expect(stdout).not.toContain(PASS);
  });

  it("says which library is missing when a mapping key is in none, and exits 1", async () => {
    const { dir } = await installFor(plex.url, plex.token, { SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"] } });
    const { code, stdout } = await runCli(["--install-dir", dir, "map", "/tv/Show/Season 1/e.mkv"]);
    expect(code).toBe(1);
    expect(stdout).toContain("/tv/ -> /data/TV/");
    expect(stdout).toMatch(
      /plex {5}no library holds \/data\/TV\/Show\/Season 1; libraries: Movies \(\/data\/Movies\), TV Shows \(\/data\/TV-Shows\)/,
    );
  });

  it("prints the trace as JSON, with the reason when Plex refuses the token", async () => {
    const { dir } = await installFor(plex.url, "wrong-token");
    const { code, stdout } = await runCli(["--install-dir", dir, "map", "--json", "--kind", "folder", "/tv/Show"]);
    expect(code).toBe(1);
    const [trace] = JSON.parse(stdout) as PathTrace[];
    expect(trace).toMatchObject({
      input: "/tv/Show",
      folder: "/data/TV-Shows/Show",
      kind: { isFile: false, why: "the request said it is a folder" },
    });
    expect(trace?.targets[0]?.why).toMatch(/^libraries unknown: Plex at http:\/\/127\.0\.0\.1:\d+ refused the token \(401\)/);
  });

  it("traces as a source with --source: its rewrite, the mapping, its filter", async () => {
    const { dir } = await installFor(plex.url, plex.token, {
      SOURCES: { sonarr: { REWRITES: [{ FROM: "^/srv/(?P<show>[^/]+)/S(\\d+)/", TO: "/tv/${show}/Season $2/" }], EXCLUDE: ["/Extras/"] } },
    });
    const kept = await runCli(["--install-dir", dir, "map", "--source", "sonarr", "/srv/Lost/S01/e01.mkv"]);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain(
      'rewrite  /tv/Lost/Season 01/e01.mkv  (SOURCES.sonarr.REWRITES[0]: "^/srv/(?P<show>[^/]+)/S(\\\\d+)/" -> "/tv/${show}/Season $2/")',
    );
    expect(kept.stdout).toContain("plex     TV Shows (section 2, folder /data/TV-Shows)");
    const dropped = await runCli(["--install-dir", dir, "map", "--source", "sonarr", "/srv/Lost/S01/Extras/x.mkv"]);
    expect(dropped.code).toBe(1);
    expect(dropped.stdout).toContain('filtered excluded by SOURCES.sonarr.EXCLUDE[0] "/Extras/": not scanned');
    // Without --source the path is what any source would send: no rule of Sonarr's applies.
    const plain = await runCli(["--install-dir", dir, "map", "/srv/Lost/S01/e01.mkv"]);
    expect(plain.stdout).not.toContain("rewrite");
    const unknown = await runCli(["--install-dir", dir, "map", "--source", "sonar", "/tv/x"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--source "sonar": no source has this name');
  });
});
