import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "autopulse-abs-fileflows.yml");

describe("scanarr import autopulse: Audiobookshelf and FileFlows targets", () => {
  it("converts each with its credential and its rewrite as PATH_MAPPINGS, and config check passes", async () => {
    const out = path.join(tempDir("scanarr-import-"), "config.json");
    const result = await runCli(["--config", out, "import", "autopulse", fixture]);
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(out, "utf8")) as { TARGETS: Array<Record<string, unknown>> };
    expect(config.TARGETS).toEqual([
      {
        TYPE: "audiobookshelf",
        NAME: "books",
        URL: "http://audiobookshelf:13378",
        TOKEN: "",
        USERNAME: "root",
        PASSWORD: 'abs pass "quoted"',
        PATH_MAPPINGS: { "/audiobooks/": ["/data/books/"] },
        ENABLED: true,
      },
      {
        TYPE: "audiobookshelf",
        NAME: "books-token",
        URL: "http://audiobookshelf:13378/abs",
        TOKEN: "abs-api-token-0123",
        PATH_MAPPINGS: {},
        ENABLED: true,
      },
      {
        TYPE: "fileflows",
        NAME: "flows",
        URL: "http://fileflows:19200",
        TOKEN: "",
        PATH_MAPPINGS: { "/media/movies/": ["/data/movies/"] },
        ENABLED: true,
      },
    ]);
    const notConverted = result.stdout.split("\n").filter((l) => l.startsWith("  - "));
    expect(notConverted).toContain(
      "  - targets.books-open: no token and no auth username and password (Audiobookshelf answers nothing without one); not converted",
    );
    expect(notConverted).toContain("  - targets.flows.request: not converted");
    for (const secret of ["abs-api-token-0123", "abs pass"]) expect(result.stdout).not.toContain(secret);
    const check = await runCli(["--config", out, "config", "check"]);
    expect(check.code, check.stderr).toBe(0);
  });
});
