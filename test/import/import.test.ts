import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "../../src/auth/password-hash.js";
import { CONFIG_SCHEMA } from "../../src/config/schema.js";
import { parseConfigText } from "../config/parse.js";
import { createServerMapper, createSourceTable } from "../../src/ingest/sources.js";
import { createPathMapper } from "../../src/paths/mapper.js";
import { runCli, tempDir } from "../helpers/cli.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
/** Keys other branches add to the schema; until they merge, config check calls them unknown. */
const PENDING_KEYS = ["ANCHORS", "TARGETS"].filter((key) => CONFIG_SCHEMA.kind === "object" && !(key in CONFIG_SCHEMA.fields));

async function importInto(kind: string, fixture: string) {
  const out = path.join(tempDir("scanarr-import-"), "config.json");
  const result = await runCli(["--config", out, "import", kind, path.join(fixtures, fixture)]);
  return { out, result, config: result.code === 0 ? (JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown>) : {} };
}

async function expectConfigCheckPasses(file: string): Promise<void> {
  const check = await runCli(["--config", file, "config", "check"]);
  if (PENDING_KEYS.length === 0) {
    expect(check.code, check.stderr).toBe(0);
    return;
  }
  // Every problem must be one of the keys whose validation lives on another branch.
  const problems = check.stderr.split("\n").filter((line) => line.startsWith("  - "));
  expect(problems.length, check.stderr).toBeGreaterThan(0);
  for (const line of problems) expect(PENDING_KEYS.map((k) => `  - ${k}: unknown key`)).toContain(line);
}

describe("scanarr import autoscan", () => {
  it("writes an equivalent config that passes config check", async () => {
    const { out, result, config } = await importInto("autoscan", "autoscan-config.yml");
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(config).toMatchObject({
      SERVER_IP: "0.0.0.0",
      SERVER_PORT: 3030,
      SERVER_SCAN_DELAY: 150,
      SERVER_ALLOW_MANUAL_SCAN: true,
      SERVER_USERNAME: "autoscan",
      PLEX_LOCAL_URL: "http://plex:32400",
      PLEX_TOKEN: "plex-token-0123",
      TRIGGERS: [{ NAME: "sonarr4k", TYPE: "sonarr" }],
      ANCHORS: ["/mnt/unionfs/mounted.bin"],
      WATCH: [{ PATHS: ["/mnt/local/Media"], MODE: "events", MIN_AGE: 10, IGNORE: ["\\.(srt|pdf)$"] }],
      TARGETS: [
        {
          TYPE: "jellyfin",
          NAME: "jellyfin",
          URL: "http://jellyfin:8096",
          TOKEN: "jellyfin-token-4567",
          PATH_MAPPINGS: { "/media/": ["/data/"] },
          ENABLED: true,
        },
      ],
    });
    expect(await verifyPassword(String(config.SERVER_PASSWORD_HASH), "hunter2hunter2")).toBe(true);
    expect(readFileSync(out, "utf8")).not.toContain("hunter2");
    await expectConfigCheckPasses(out);
  });

  it("maps every path the *arrs, A-Train and the watched folder send to Plex's path, as autoscan's two rewrites did", async () => {
    const { out } = await importInto("autoscan", "autoscan-config.yml");
    const { config } = parseConfigText(readFileSync(out, "utf8"), out);
    const sources = createSourceTable(config);
    const server = createServerMapper(config);
    const mapAs = (source: string, path: string) => (sources.settingsFor(source)?.mapper ?? server).toServerPath(path);
    expect(mapAs("sonarr", "/tv/Show/Season 1/e.mkv")).toBe("/data/TV/Show/Season 1/e.mkv");
    expect(mapAs("sonarr4k", "/tv4k/Show/Season 1")).toBe("/data/TV 4K/Show/Season 1");
    expect(mapAs("radarr", "/movies/Film (2001)")).toBe("/data/Movies/Film (2001)");
    // The year folders' regular expression, which the prefix mappings could not carry.
    expect(mapAs("radarr", "/archive/2001/Film (2001)")).toBe("/data/Movies/Film (2001)");
    expect(mapAs("lidarr", "/music/Artist/Album")).toBe("/data/Music/Artist/Album");
    expect(mapAs("a-train", "/Media/TV/Show")).toBe("/data/TV/Show");
    expect(mapAs("watch", "/mnt/local/Media/Movies/Film (2001)")).toBe("/data/Movies/Film (2001)");
    expect(mapAs("manual", "/mnt/unionfs/Media/Movies/Film (2001)")).toBe("/data/Movies/Film (2001)");
    expect(config.SOURCES).toEqual({
      sonarr: { PRIORITY: -2 },
      radarr: {
        REWRITES: [
          { FROM: "^/movies/", TO: "/mnt/unionfs/Media/Movies/" },
          { FROM: "^/archive/(\\d{4})/(.*)$", TO: "/mnt/unionfs/Media/Movies/$2" },
        ],
      },
    });
  });

  it("lists, line by line, what it could not convert", async () => {
    const { result } = await importInto("autoscan", "autoscan-config.yml");
    const lines = result.stdout.split("\n").filter((l) => l.startsWith("  - "));
    expect(lines).toEqual([
      "  - scan-delay: scanarr has no pause between scans; not converted",
      "  - scan-stats: scanarr shows its queue at /<SERVER_PASS>/api/queue instead; not converted",
      "  - triggers.bernard: use scanarr's drive monitoring (CLOUD, `scanarr authorize`); not converted",
    ]);
  });

  it("never overwrites an existing config without --force", async () => {
    const out = path.join(tempDir("scanarr-import-"), "config.json");
    writeFileSync(out, '{"SERVER_PASS": "keep-this-one"}\n');
    const refused = await runCli(["--config", out, "import", "autoscan", path.join(fixtures, "autoscan-config.yml")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--force");
    expect(readFileSync(out, "utf8")).toBe('{"SERVER_PASS": "keep-this-one"}\n');
    const forced = await runCli(["--config", out, "import", "autoscan", path.join(fixtures, "autoscan-config.yml"), "--force"]);
    expect(forced.code).toBe(0);
    expect(readFileSync(out, "utf8")).toContain('"SERVER_PORT": 3030');
  });

  it("refuses a file that is not YAML, or an unknown kind, writing nothing", async () => {
    const dir = tempDir("scanarr-import-");
    const bad = path.join(dir, "config.yml");
    writeFileSync(bad, "triggers: [unclosed\n");
    const out = path.join(dir, "out.json");
    expect((await runCli(["--config", out, "import", "autoscan", bad])).code).toBe(1);
    expect((await runCli(["--config", out, "import", "plex_autoscan", bad])).code).toBe(2);
    expect(() => statSync(out)).toThrow();
  });
});

describe("scanarr import autopulse", () => {
  it("converts named triggers, the notify watch, targets and a direct rewrite, and lists the rest", async () => {
    const { out, result, config } = await importInto("autopulse", "autopulse-config.yml");
    expect(result.code, result.stderr).toBe(0);
    expect(config).toMatchObject({
      SERVER_PORT: 2875,
      SERVER_SCAN_DELAY: 90,
      SERVER_USERNAME: "admin",
      PLEX_LOCAL_URL: "http://plex:32400",
      ANCHORS: ["/mnt/media/.anchor"],
      TRIGGERS: [
        { NAME: "radarr4k", TYPE: "radarr" },
        { NAME: "bazarr", TYPE: "manual" },
        { NAME: "legacy", TYPE: "manual" },
      ],
      WATCH: [{ PATHS: ["/media/done"], MODE: "poll" }],
      TARGETS: [{ TYPE: "jellyfin", NAME: "jf", PATH_MAPPINGS: { "/media/": ["/data/"] } }],
    });
    const mapper = createPathMapper(config.SERVER_PATH_MAPPINGS as Record<string, string[]>);
    expect(mapper.toServerPath("/tv/Show/Season 1")).toBe("/data/tv/Show/Season 1");
    expect(mapper.toServerPath("/movies4k/Film (2001)")).toBe("/data/movies4k/Film (2001)");
    expect(mapper.toServerPath("/media/done/x.mkv")).toBe("/data/done/x.mkv");
    expect(config.SOURCES).toEqual({ sonarr: { DELAY: 30 } });
    const notConverted = result.stdout.split("\n").filter((l) => l.startsWith("  - "));
    for (const where of ["app.database_url", "opts.check_path", "triggers.sport", "targets.plex.refresh", "targets.tdarr", "webhooks"]) {
      expect(
        notConverted.some((l) => l.startsWith(`  - ${where}`)),
        where,
      ).toBe(true);
    }
    await expectConfigCheckPasses(out);
  });
});
