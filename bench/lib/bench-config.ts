import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { resolveInstallPaths, type InstallPaths } from "../../src/lib/install-paths.js";
import { startFakePlex, type FakePlex, type FakeSection } from "../../test/fakes/plex.js";
import { makeTempDir, onCleanup } from "./cleanup.js";

export const BENCH_PASS = "benchbenchbenchbenchbenchbench01";

/** Plex's libraries as the fake serves them, in the media-server path style. */
export const BENCH_SECTIONS: FakeSection[] = [
  { key: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] },
  { key: "2", title: "TV Shows", type: "show", locations: ["/data/TV"] },
];

/** Sonarr and Radarr see /tv and /movies; Plex sees /data/... */
const MAPPINGS: Record<string, string[]> = {
  "/data/Movies/": ["/movies/"],
  "/data/TV/": ["/tv/"],
};

/** A serve config on 127.0.0.1:0 against the fake Plex; a long delay keeps every scan pending. */
export function benchConfig(plexUrl: string, plexToken: string, overrides: Partial<Config> = {}): Config {
  return {
    ...defaultConfig(BENCH_PASS),
    SERVER_IP: "127.0.0.1",
    SERVER_PORT: 0,
    SERVER_SCAN_DELAY: 3_600,
    SERVER_ALLOW_MANUAL_SCAN: true,
    SERVER_PATH_MAPPINGS: MAPPINGS,
    PLEX_LOCAL_URL: plexUrl,
    PLEX_TOKEN: plexToken,
    ...overrides,
  };
}

/**
 * Writes <installDir>/config/config.json (0600: it holds the pass) with the
 * keys that differ from the defaults, and the pass: the loader fills in the
 * rest, so another checkout (`--base`) that lacks a newer key reads it too.
 */
export function writeBenchConfig(installDir: string, config: Config): void {
  mkdirSync(path.join(installDir, "config"), { recursive: true });
  const defaults: Record<string, unknown> = defaultConfig(config.SERVER_PASS);
  const sparse = Object.fromEntries(
    Object.entries(config).filter(([key, value]) => key === "SERVER_PASS" || JSON.stringify(value) !== JSON.stringify(defaults[key])),
  );
  writeFileSync(path.join(installDir, "config", "config.json"), JSON.stringify(sparse, null, 2), { mode: 0o600 });
}

/** The fake Plex (closed at clean-up) and a temp install dir with its data folder and a config from `overrides`. */
export async function benchInstall(overrides: Partial<Config> = {}): Promise<{ plex: FakePlex; installDir: string; paths: InstallPaths }> {
  const plex = await startFakePlex({ sections: BENCH_SECTIONS });
  onCleanup(() => plex.close());
  const installDir = makeTempDir();
  const paths = resolveInstallPaths(installDir);
  mkdirSync(paths.dataDir, { recursive: true });
  writeBenchConfig(installDir, benchConfig(plex.url, plex.token, overrides));
  return { plex, installDir, paths };
}
