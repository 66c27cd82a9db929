import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { setupFlags, startSetupWorld, type SetupWorld } from "./setup-world.js";

let world: SetupWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("scanarr setup with SCANARR_ variables set", () => {
  it("writes none of them into the file, and its doctor checks the config serve will run, naming them", async () => {
    world = await startSetupWorld();
    const before = JSON.parse(readFileSync(world.configFile, "utf8")) as Record<string, unknown>;
    const env = { SCANARR_SERVER_SCAN_DELAY: "7", SCANARR_PLEX_EMPTY_TRASH_MAX_FILES: "321" };
    const result = await runCli(["--install-dir", world.installDir, "setup", ...setupFlags(world), "--yes"], env);
    const output = result.stdout + result.stderr;
    const after = JSON.parse(readFileSync(world.configFile, "utf8")) as Record<string, unknown>;
    expect(after.SERVER_SCAN_DELAY).toBe(before.SERVER_SCAN_DELAY);
    expect(after.PLEX_EMPTY_TRASH_MAX_FILES).toBe(before.PLEX_EMPTY_TRASH_MAX_FILES);
    expect(output).toContain(
      "from the environment, over the file: PLEX_EMPTY_TRASH_MAX_FILES (SCANARR_PLEX_EMPTY_TRASH_MAX_FILES), SERVER_SCAN_DELAY (SCANARR_SERVER_SCAN_DELAY)",
    );
    expect(result.code, output).toBe(0);
  });
});
