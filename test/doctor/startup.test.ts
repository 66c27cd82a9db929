import { withPlexEntry } from "../../src/config/plex-entry.js";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { runStartupDoctor } from "../../src/doctor/startup.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { createLogger, silentLogger } from "../../src/lib/logger.js";
import { buildTargets } from "../../src/targets/build-targets.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { tempDir } from "../helpers/cli.js";

let plex: FakePlex;
beforeAll(async () => {
  plex = await startFakePlex();
});
afterAll(async () => {
  await plex.close();
});

async function startUp(overrides: Partial<Config>): Promise<Array<Record<string, unknown>>> {
  let text = "";
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const config: Config = {
    ...defaultConfig("0123456789abcdef0123456789abcdef"),
    PLEX_LOCAL_URL: plex.url,
    PLEX_TOKEN: plex.token,
    PLEX_DATABASE_PATH: "",
    SERVER_PATH_MAPPINGS: { "/data/Movies/": ["/movies/"] },
    ...overrides,
  };
  await runStartupDoctor({
    config,
    targets: await buildTargets(withPlexEntry(config), { logger: silentLogger() }),
    paths: resolveInstallPaths(tempDir()),
    logger: createLogger({ level: "debug", format: "json", destination }),
  });
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const warnings = (lines: Array<Record<string, unknown>>) => lines.filter((l) => l.level === 40).map((l) => l.msg);

describe("the doctor's short form at serve start-up", () => {
  it("logs nothing above debug when the set-up is sound", async () => {
    const lines = await startUp({});
    expect(warnings(lines)).toEqual([]);
    expect(lines.map((l) => l.check)).toEqual(expect.arrayContaining(["config", "target plex", "mapping /data/Movies/"]));
  });

  it("warns about a mapping key in no library, and about a refused token, without throwing", async () => {
    const lines = await startUp({ PLEX_TOKEN: "wrong-token-1234", SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"] } });
    expect(warnings(lines)).toEqual([
      expect.stringMatching(/refused the token \(401\).*\(scanarr doctor checks the whole set-up\)$/),
      expect.stringMatching(/^cannot check \/data\/TV\/: libraries unknown/),
    ]);
    expect(JSON.stringify(lines)).not.toContain("wrong-token-1234");
  });

  it("warns that a key is in no library when Plex answers", async () => {
    const lines = await startUp({ SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"] } });
    expect(warnings(lines)).toEqual([expect.stringMatching(/^\/data\/TV\/ is in no library.*did you mean "\/data\/TV-Shows\/"/)]);
  });
});
