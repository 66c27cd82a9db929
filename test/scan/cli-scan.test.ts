import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { run, type ScanOptions } from "../../src/cli/scan.js";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { UserError } from "../../src/domain.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { silentLogger } from "../../src/lib/logger.js";
import { createFakeBin, createSink, type FakeBin } from "./helpers/fake-bin.js";
import { buildPlexDb, copyFixtureDb, hasFixtureDb } from "./helpers/plex-db.js";

const SECTIONS = [
  { id: 1, name: "Movies", type: 1, locations: ["/data/Movies"] },
  { id: 2, name: "TV Shows", type: 2, locations: ["/data/TV", "/data/TV2"] },
];

function setup(overrides: Partial<Config> = {}, bin: FakeBin = createFakeBin()) {
  const config: Config = {
    ...defaultConfig("a".repeat(32)),
    PLEX_SCANNER: bin.scanner,
    PLEX_DATABASE_PATH: buildPlexDb(SECTIONS),
    PLEX_LOCAL_URL: "",
    SERVER_PATH_MAPPINGS: { "/data/TV/": ["/mnt/unionfs/Media/TV/", "My Drive/Media/TV/"] },
    ...overrides,
  };
  const stdout = createSink();
  const stderr = createSink();
  const ctx = {
    config,
    paths: resolveInstallPaths(mkdtempSync(path.join(tmpdir(), "scanarr-cli-"))),
    logger: silentLogger(),
    stdout,
    stderr,
    color: false,
    env: bin.env,
    signal: new AbortController().signal,
    stdin: Readable.from([]),
  };
  return { bin, ctx, stdout, stderr, scan: (options: ScanOptions) => run(options, ctx) };
}

describe("scanarr scan", () => {
  it("maps a mount path, finds the section and runs the scanner", async () => {
    const { bin, scan, stdout, stderr } = setup();
    expect(await scan({ directory: "/mnt/unionfs/Media/TV/Bob's Show/Season 1" })).toBe(0);
    expect(bin.records()[0]?.argv).toEqual(["--scan", "--refresh", "--section", "2", "--directory", "/data/TV/Bob's Show/Season 1"]);
    expect(stdout.text()).toBe("Scanning /data/TV/Bob's Show/Season 1\n");
    expect(stderr.text()).toContain("scanning /data/TV/Bob's Show/Season 1 in section 2 (TV Shows) directly");
  });

  it("scans the folder of a file it is given", async () => {
    const { bin, scan, stderr } = setup();
    expect(await scan({ directory: "My Drive/Media/TV/Show/Season 1/S01E01.mkv", section: "2" })).toBe(0);
    expect(bin.records()[0]?.argv.at(-1)).toBe("/data/TV/Show/Season 1");
    expect(stderr.text()).toContain("is a file: scanning its folder");
  });

  it("prints the exact command without running it on --dry-run", async () => {
    const { bin, scan, stdout } = setup({ USE_DOCKER: true, PLEX_USER: "abc", PLEX_SUPPORT_DIR: "/config/Library/Application Support" });
    expect(await scan({ directory: "/data/Movies/Amélie (2001)", dryRun: true })).toBe(0);
    expect(stdout.text()).toBe(
      `docker exec -u abc -e LD_LIBRARY_PATH=/usr/lib/plexmediaserver/lib -e 'PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR=/config/Library/Application Support' plex '${bin.scanner}' --scan --refresh --section 1 --directory '/data/Movies/Amélie (2001)'\n`,
    );
    expect(bin.records()).toEqual([]);
  });

  it("honours --docker NAME and --user over the config", async () => {
    const { bin, scan } = setup({ USE_SUDO: true });
    expect(await scan({ directory: "/data/TV/Show", docker: "plex", user: "abc", section: "2" })).toBe(0);
    expect(bin.records()[0]?.argv.slice(0, 4)).toEqual(["exec", "-u", "abc", "-e"]);
  });

  it("lists the libraries with every location", async () => {
    const { scan, stdout, stderr } = setup();
    expect(await scan({ list: true })).toBe(0);
    expect(stdout.text()).toBe(
      [
        "ID  TYPE   NAME      LOCATIONS",
        "1   movie  Movies    /data/Movies",
        "2   show   TV Shows  /data/TV",
        "                     /data/TV2",
        "",
      ].join("\n"),
    );
    expect(stderr.text()).toContain("libraries from the Plex database");
  });

  it.skipIf(!hasFixtureDb)("detects the section from the real Plex database", async () => {
    const { bin, scan } = setup({ PLEX_DATABASE_PATH: copyFixtureDb() });
    expect(await scan({ directory: "/data/TV-Shows/Show/Season 2" })).toBe(0);
    expect(bin.records()[0]?.argv.slice(2, 4)).toEqual(["--section", "2"]);
  });

  it("runs an explicit section even when no library list can be read, with a warning", async () => {
    const { bin, scan, stderr } = setup({ PLEX_DATABASE_PATH: "/nonexistent/plex.db" });
    expect(await scan({ directory: "/data/TV/Show", section: "9" })).toBe(0);
    expect(bin.records()[0]?.argv.slice(2, 4)).toEqual(["--section", "9"]);
    expect(stderr.text()).toContain("warning: section 9 not checked: cannot list the Plex libraries");
  });

  it("returns the scanner's exit code and says it failed", async () => {
    const bin = createFakeBin();
    bin.env.FAKE_SCANNER_EXIT = "4";
    const { scan, stderr } = setup({}, bin);
    expect(await scan({ directory: "/data/Movies/X" })).toBe(4);
    expect(stderr.text()).toContain("error: the scanner exited with code 4");
  });

  it("exits 1 with a clear message when the scanner is missing", async () => {
    const { scan, stderr } = setup({ PLEX_SCANNER: "/opt/none/Plex Media Scanner" });
    expect(await scan({ directory: "/data/Movies/X" })).toBe(1);
    expect(stderr.text()).toContain("error: /opt/none/Plex Media Scanner was not found");
  });
});

describe("scanarr scan refuses", () => {
  const cases: Array<[string, ScanOptions, RegExp, 1 | 2]> = [
    ["no directory", {}, /needs --directory/, 2],
    ["a non-integer section", { directory: "/data/TV/x", section: "two" }, /--section must be a positive integer/, 2],
    ["an unknown section", { directory: "/data/TV/x", section: "3" }, /no library section 3:\n {2}1: Movies/, 2],
    ["a path outside every library", { directory: "/srv/x/Film" }, /not inside any Plex library/, 1],
    ["a relative path no mapping knows", { directory: "Other Drive/x" }, /relative/, 2],
    ["a bad timeout", { directory: "/data/TV/x", timeout: "soon" }, /--timeout must be a number/, 2],
    ["--docker with --sudo", { directory: "/data/TV/x", docker: true, sudo: true }, /cannot be combined/, 2],
  ];

  it.each(cases)("%s, running nothing", async (_name, options, message, exitCode) => {
    const { bin, scan } = setup();
    const attempt = scan(options);
    await expect(attempt).rejects.toBeInstanceOf(UserError);
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.toMatchObject({ exitCode });
    expect(bin.records()).toEqual([]);
  });
});
