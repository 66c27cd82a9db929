import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { overlayEnv } from "../../src/config/env-overlay.js";
import { envShapeOf } from "../../src/config/env-shape.js";
import { starterConfig } from "../../src/config/starter.js";
import { configSchema } from "../../src/config/target-kind.js";
import { TARGET_CONFIGS } from "../../src/targets/registry.js";
import { PASS } from "./helpers.js";
import { parseConfigText } from "./parse.js";

describe("the quiet time's and the file checks' defaults (#34)", () => {
  it("give a new config 10 s of quiet, and `init`/`setup`'s starter writes it", () => {
    expect(defaultConfig(PASS).SERVER_SCAN_DELAY).toBe(10);
    expect(starterConfig(PASS).SERVER_SCAN_DELAY).toBe(10);
  });

  it("keep a file's own SERVER_SCAN_DELAY, file-check rounds and delay (a plex_autoscan file carries 180, 10 and 60)", () => {
    const { config } = parseConfigText(
      JSON.stringify({ SERVER_PASS: PASS, SERVER_SCAN_DELAY: 180, SERVER_MAX_FILE_CHECKS: 10, SERVER_FILE_CHECK_DELAY: 60 }),
    );
    expect([config.SERVER_SCAN_DELAY, config.SERVER_MAX_FILE_CHECKS, config.SERVER_FILE_CHECK_DELAY]).toEqual([180, 10, 60]);
  });

  it("leave SERVER_MAX_FILE_CHECKS unset (automatic) when a file does not name it, and take 0 as off", () => {
    expect(parseConfigText(JSON.stringify({ SERVER_PASS: PASS })).config.SERVER_MAX_FILE_CHECKS).toBeUndefined();
    expect(parseConfigText(JSON.stringify({ SERVER_PASS: PASS, SERVER_MAX_FILE_CHECKS: 0 })).config.SERVER_MAX_FILE_CHECKS).toBe(0);
  });

  it("take SERVER_MAX_FILE_CHECKS from the environment like any number", () => {
    const shape = envShapeOf(configSchema(TARGET_CONFIGS));
    const { config, problems } = overlayEnv({}, { SCANARR_SERVER_MAX_FILE_CHECKS: "3" }, shape, () => "");
    expect(problems).toEqual([]);
    expect(config).toMatchObject({ SERVER_MAX_FILE_CHECKS: 3 });
  });
});
