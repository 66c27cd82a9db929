import { describe, expect, it } from "vitest";
import { withTargetDefaults } from "../../src/config/defaults.js";
import { TARGET_TYPES } from "../../src/domain.js";
import { ManualClock } from "../../src/lib/clock.js";
import { silentLogger } from "../../src/lib/logger.js";
import { ArrTarget } from "../../src/targets/arr/target.js";
import { AutoscanTarget } from "../../src/targets/autoscan/autoscan-target.js";
import { CommandTarget } from "../../src/targets/command/command-target.js";
import { EmbyTarget } from "../../src/targets/emby/emby-target.js";
import { JellyfinTarget } from "../../src/targets/jellyfin/jellyfin-target.js";
import { PlexTarget } from "../../src/targets/plex/plex-target.js";
import { TARGET_FACTORIES } from "../../src/targets/registry.js";
import { TdarrTarget } from "../../src/targets/tdarr/tdarr-target.js";

const deps = { logger: silentLogger(), clock: new ManualClock(), timeoutMs: 2_000 };

async function build(type: (typeof TARGET_TYPES)[number]) {
  const entry = withTargetDefaults({ TYPE: type, NAME: `my-${type}`, URL: `http://${type}.lan:8096/sub`, TOKEN: "a-token-1234" });
  return (await TARGET_FACTORIES[type]())({ entry, at: "TARGETS[3]" }, deps);
}

describe("the target registry", () => {
  it("has a factory for every TYPE the config accepts, and nothing else", () => {
    expect(Object.keys(TARGET_FACTORIES).sort()).toEqual([...TARGET_TYPES].sort());
  });

  it.each([
    ["plex", PlexTarget, true, true],
    ["jellyfin", JellyfinTarget, false, false],
    ["emby", EmbyTarget, false, false],
    ["autoscan", AutoscanTarget, false, false],
    ["tdarr", TdarrTarget, false, false],
    ["sonarr", ArrTarget, false, false],
    ["radarr", ArrTarget, false, false],
  ] as const)("builds a %s entry with its name, address and capabilities", async (type, kind, perLibrary, confirms) => {
    const target = await build(type);
    expect(target).toBeInstanceOf(kind);
    expect(target.name).toBe(`my-${type}`);
    expect(target.where.startsWith(`http://${type}.lan:8096/sub`)).toBe(true);
    expect(target.scansPerLibrary).toBe(perLibrary);
    expect(target.confirms ?? false).toBe(confirms);
    const takesAnyFolder = type === "autoscan" || type === "tdarr";
    expect(target.libraries.knownLibraries()).toEqual(takesAnyFolder ? [expect.objectContaining({ id: "all" })] : undefined);
  });

  it("builds a command entry around its program, taking every folder", async () => {
    const entry = withTargetDefaults({ TYPE: "command", NAME: "notify", COMMAND: ["/usr/local/bin/notify", "{folder}"] });
    const target = (await TARGET_FACTORIES.command())({ entry, at: "TARGETS[0]" }, deps);
    expect(target).toBeInstanceOf(CommandTarget);
    expect([target.where, target.scansPerLibrary]).toEqual(["/usr/local/bin/notify", false]);
    expect(target.libraries.knownLibraries()).toEqual([expect.objectContaining({ id: "all" })]);
  });
});
