import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { load, PASS, problemsOf } from "./helpers.js";

describe("SERVER_PATH_REWRITES, SOURCES and TARGETS[i].REWRITES", () => {
  it("are empty by default", () => {
    const config = load({});
    expect(config.SERVER_PATH_REWRITES).toEqual([]);
    expect(config.SOURCES).toEqual({});
  });

  it("accept rules in Go's syntax and every source setting", () => {
    const config = load({
      SERVER_PATH_REWRITES: [{ FROM: "(?i)^/srv/(?P<show>[^/]+)/", TO: "/tv/${show}/" }],
      TRIGGERS: [{ NAME: "sonarr4k", TYPE: "sonarr" }],
      SOURCES: {
        "a-train": { PRIORITY: -5 },
        "a-train/0AExampleDrive": { REWRITES: [{ FROM: "^/Shared/", TO: "/tv/" }] },
        sonarr4k: { PRIORITY: -2, DELAY: 30, INCLUDE: ["^/tv4k/"], EXCLUDE: ["/Extras/"] },
        watch: { DELAY: 0 },
      },
      TARGETS: [{ TYPE: "jellyfin", NAME: "jf", URL: "http://jf:8096", TOKEN: "t", REWRITES: [{ FROM: "^/data/", TO: "/media/" }] }],
    });
    expect(config.SOURCES.sonarr4k).toEqual({ PRIORITY: -2, DELAY: 30, INCLUDE: ["^/tv4k/"], EXCLUDE: ["/Extras/"] });
    expect(config.TARGETS[0]?.REWRITES).toEqual([{ FROM: "^/data/", TO: "/media/" }]);
  });

  it("report every bad pattern and template at once, each with its dotted path", () => {
    const problems = problemsOf({
      SERVER_PATH_REWRITES: [
        { FROM: "^/tv/(", TO: "/x/" },
        { FROM: "^/tv/(.*)", TO: "/data/$2" },
      ],
      SOURCES: { sonarr: { EXCLUDE: ["[unclosed"], REWRITES: [{ FROM: "^/a/(?i)b", TO: "/" }] } },
      TARGETS: [{ TYPE: "emby", NAME: "e", URL: "http://emby:8096", TOKEN: "t", REWRITES: [{ FROM: "^/(a+)+$", TO: "/" }] }],
    });
    expect(problems).toEqual([
      expect.stringMatching(/^SERVER_PATH_REWRITES\[0\]\.FROM: "\^\/tv\/\(" has a \( without its \)$/),
      expect.stringMatching(/^SERVER_PATH_REWRITES\[1\]\.TO: "\/data\/\$2" refers to group 2, which FROM does not have/),
      expect.stringMatching(/^TARGETS\[0\]\.REWRITES\[0\]\.FROM: .*exponential time/),
      expect.stringMatching(/^SOURCES\.sonarr\.REWRITES\[0\]\.FROM: .*flags can be set only at the very start/),
      expect.stringMatching(/^SOURCES\.sonarr\.EXCLUDE\[0\]: "\[unclosed" has a \[ without its \]$/),
    ]);
  });

  it("refuses a SOURCES name no source has, listing the names there are", () => {
    expect(problemsOf({ SOURCES: { sonar: { PRIORITY: 1 } } })).toEqual([
      expect.stringMatching(
        /^SOURCES\.sonar: no source has this name; the sources are sonarr, radarr, .*watch, drive, a-train\/<drive id>$/,
      ),
    ]);
  });

  it("refuses a mistyped setting and an unknown key with their dotted paths", () => {
    expect(problemsOf({ SOURCES: { manual: { PRIORITY: 1.5, DELAY: -1, FILTER: [] } }, SERVER_PATH_REWRITES: [{ FROM: "" }] })).toEqual([
      "SOURCES.manual.PRIORITY: must be a whole number, got 1.5",
      "SOURCES.manual.DELAY: must be at least 0, got -1",
      "SOURCES.manual.FILTER: unknown key",
      "SERVER_PATH_REWRITES[0].TO: missing; it is required",
      "SERVER_PATH_REWRITES[0].FROM: must not be empty",
    ]);
  });

  it("make config check exit 2 with the dotted path, leaving the file as it was", async () => {
    const file = path.join(tempDir("scanarr-rewrites-"), "config.json");
    const text = JSON.stringify({ SERVER_PASS: PASS, SOURCES: { radarr: { REWRITES: [{ FROM: "^/movies/(?i)x", TO: "/" }] } } });
    writeFileSync(file, text);
    const check = await runCli(["--config", file, "config", "check"]);
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(
      /SOURCES\.radarr\.REWRITES\[0\]\.FROM: "\^\/movies\/\(\?i\)x" has "\(\?i\)x": flags can be set only at the very start/,
    );
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});
