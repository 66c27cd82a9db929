import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig, withTargetDefaults } from "../../src/config/defaults.js";
import { withPlexEntry } from "../../src/config/plex-entry.js";
import type { Config, TargetConfig } from "../../src/config/types.js";
import { ManualClock } from "../../src/lib/clock.js";
import type { LibraryCatalog } from "../../src/domain.js";
import { silentLogger } from "../../src/lib/logger.js";
import type { TargetRuntime } from "../../src/domain.js";
import { buildTargets, runtimeOfTarget } from "../../src/targets/build-targets.js";
import { catalogOfTargets } from "../../src/serve/target-catalog.js";
import { PlexTarget } from "../../src/targets/plex/plex-target.js";
import { startFakeAutoscan } from "../fakes/autoscan.js";
import { startFakeEmby } from "../fakes/emby.js";
import { startFakeJellyfin } from "../fakes/jellyfin.js";
import { startFakePlex } from "../fakes/plex.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function config(overrides: Partial<Config> = {}): Config {
  return withPlexEntry({ ...defaultConfig("0123456789abcdef0123456789abcdef"), ...overrides });
}

function entry(fields: Pick<TargetConfig, "TYPE" | "NAME" | "URL"> & Partial<TargetConfig>): TargetConfig {
  return withTargetDefaults(fields);
}

const deps = () => ({ logger: silentLogger(), clock: new ManualClock(), env: {}, timeoutMs: 2_000 });

describe("buildTargets with the flat PLEX_* keys only", () => {
  it("builds exactly today's single Plex API target, named plex, with paths unchanged", async () => {
    const built = await buildTargets(config(), deps());
    expect(built).toHaveLength(1);
    const [plex] = built as [TargetRuntime];
    expect(plex.target).toBeInstanceOf(PlexTarget);
    expect(plex.target.name).toBe("plex");
    expect(plex.target.scansPerLibrary).toBe(true);
    expect(plex.toTargetPath("/data/TV/Show")).toBe("/data/TV/Show");
    expect(plex.libraries).toBe((plex.target as PlexTarget).libraries);
  });

  it("builds the scanner target, named plex-scanner, with PLEX_SCAN_METHOD scanner", async () => {
    const [scanner] = await buildTargets(config({ PLEX_SCAN_METHOD: "scanner" }), deps());
    expect(scanner?.target.name).toBe("plex-scanner");
    expect(scanner?.libraries.knownLibraries()).toBeUndefined();
  });

  it("talks to PLEX_LOCAL_URL with PLEX_TOKEN", async () => {
    const plex = await startFakePlex();
    closers.push(() => plex.close());
    const [built] = await buildTargets(config({ PLEX_LOCAL_URL: plex.url, PLEX_TOKEN: plex.token }), deps());
    const [tv] = (await built?.libraries.librariesFor("/data/TV-Shows/Show")) ?? [];
    expect(tv?.title).toBe("TV Shows");
  });
});

describe("buildTargets with TARGETS", () => {
  it("puts the flat Plex target first, then the enabled entries in order", async () => {
    const targets = [
      entry({ TYPE: "jellyfin", NAME: "jf", URL: "http://jf:8096", TOKEN: "k1" }),
      entry({ TYPE: "emby", NAME: "off", URL: "http://emby:8096", TOKEN: "k2", ENABLED: false }),
      entry({ TYPE: "autoscan", NAME: "chain", URL: "http://autoscan:3030" }),
      entry({ TYPE: "plex", NAME: "plex-4k", URL: "http://plex4k:32400", TOKEN: "k3" }),
    ];
    const built = await buildTargets(config({ TARGETS: targets }), deps());
    expect(built.map((b) => [b.target.name, b.target.scansPerLibrary, b.target.confirms ?? false])).toEqual([
      ["plex", true, true],
      ["jf", false, false],
      ["chain", false, false],
      ["plex-4k", true, true],
    ]);
  });

  it("leaves the flat Plex target out when PLEX_ENABLED is false", async () => {
    const targets = [entry({ TYPE: "emby", NAME: "emby", URL: "http://emby:8096", TOKEN: "k" })];
    expect((await buildTargets(config({ PLEX_ENABLED: false, TARGETS: targets }), deps())).map((b) => b.target.name)).toEqual(["emby"]);
  });

  it("rewrites paths with an entry's PATH_MAPPINGS, longest prefix first, and leaves others alone", async () => {
    const mappings = { "/media/": ["/data/"], "/media4k/": ["/data/4K/"] };
    const targets = [entry({ TYPE: "jellyfin", NAME: "jf", URL: "http://jf:8096", TOKEN: "k", PATH_MAPPINGS: mappings })];
    const [plex, jf] = (await buildTargets(config({ TARGETS: targets }), deps())) as [TargetRuntime, TargetRuntime];
    expect(jf.toTargetPath("/data/TV/Show/Season 1")).toBe("/media/TV/Show/Season 1");
    expect(jf.toTargetPath("/data/4K/Movie (2020)")).toBe("/media4k/Movie (2020)");
    expect(jf.toTargetPath("/data 2/x")).toBe("/data 2/x");
    expect(jf.toTargetPath("/media/already")).toBe("/media/already");
    expect(plex.toTargetPath("/data/TV/Show")).toBe("/data/TV/Show");
  });

  it("delivers one folder to each server in that server's own paths", async () => {
    const [plex, jellyfin, emby, autoscan] = await Promise.all([
      startFakePlex(),
      startFakeJellyfin(),
      startFakeEmby(),
      startFakeAutoscan(),
    ]);
    closers.push(plex.close, jellyfin.close, emby.close, autoscan.close);
    const media = { "/media/": ["/data/"] };
    const targets = [
      entry({ TYPE: "jellyfin", NAME: "jf", URL: jellyfin.url, TOKEN: jellyfin.token, PATH_MAPPINGS: media }),
      entry({ TYPE: "emby", NAME: "emby", URL: emby.url, TOKEN: emby.token, PATH_MAPPINGS: media }),
      entry({ TYPE: "autoscan", NAME: "chain", URL: autoscan.url, PATH_MAPPINGS: { "/mnt/unionfs/": ["/data/"] } }),
    ];
    const built = await buildTargets(config({ PLEX_LOCAL_URL: plex.url, PLEX_TOKEN: plex.token, TARGETS: targets }), deps());
    const folder = "/data/TV-Shows/Show/Season 1";
    for (const b of built) {
      const path = b.toTargetPath(folder);
      const [library] = await b.libraries.librariesFor(path);
      if (library) await b.target.scan(path, library, [`${path}/S01E01.mkv`]);
    }
    expect(plex.refreshes).toEqual([{ sectionId: "2", path: folder }]);
    // Jellyfin and Emby hold nothing of the show yet: the library's own item is refreshed, in each server's path form.
    expect(jellyfin.items.refreshes.map((r) => r.path)).toEqual(["/media/TV-Shows"]);
    expect(emby.items.refreshes.map((r) => r.path)).toEqual(["/media/TV-Shows"]);
    expect(autoscan.triggers).toEqual([["/mnt/unionfs/TV-Shows/Show/Season 1"]]);
  });
});

describe("a built target's library cache", () => {
  it("serves the HTTP side's LibraryCatalog: unknown at first, known after one refresh", async () => {
    const jellyfin = await startFakeJellyfin();
    closers.push(jellyfin.close);
    const targets = [entry({ TYPE: "jellyfin", NAME: "jf", URL: jellyfin.url, TOKEN: jellyfin.token })];
    const [, jf] = (await buildTargets(config({ TARGETS: targets }), deps())) as [TargetRuntime, TargetRuntime];
    const catalog: LibraryCatalog = catalogOfTargets([jf]);
    expect(catalog.knownLibraries()).toBeUndefined();
    await catalog.refreshLibraries();
    expect(catalog.knownLibraries()?.map((l) => l.title)).toEqual(["Movies", "Shows", "Music"]);
  });
});

describe("runtimeOfTarget", () => {
  it("wraps a target built elsewhere in a cache over its listLibraries()", async () => {
    const libraries = [{ id: "1", title: "TV", type: "show", locations: ["/tv"] }];
    const fake = { name: "fake", scansPerLibrary: true, listLibraries: async () => libraries, scan: async () => undefined };
    const built = runtimeOfTarget(fake);
    expect(await built.libraries.librariesFor("/tv/x")).toEqual(libraries);
    expect(built.toTargetPath("/tv/x")).toBe("/tv/x");
  });
});
