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
});
