import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { tempDir } from "../helpers/cli.js";

export const PASS = "0123456789abcdef0123456789abcdef";

/** A port that was free a moment ago, for SERVER_PORT. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An install dir whose config points at `plexUrl` with `token`, on 127.0.0.1 and a free port. */
export async function installFor(
  plexUrl: string,
  token: string,
  overrides: Partial<Config> = {},
): Promise<{ dir: string; config: Config }> {
  const dir = tempDir();
  mkdirSync(path.join(dir, "config"));
  const config: Config = {
    ...defaultConfig(PASS),
    SERVER_IP: "127.0.0.1",
    SERVER_PORT: await freePort(),
    PLEX_LOCAL_URL: plexUrl,
    PLEX_TOKEN: token,
    PLEX_DATABASE_PATH: path.join(dir, "no-plex.db"),
    SERVER_PATH_MAPPINGS: { "/data/TV-Shows/": ["/tv/"], "/data/Movies/": ["/movies/", "My Drive/Media/Movies/"] },
    ...overrides,
  };
  writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
  return { dir, config };
}
