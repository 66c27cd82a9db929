import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { defaultConfig } from "../../src/config/defaults.js";
import { startFakeArr, type FakeArr } from "../fakes/arr.js";
import { startFakeJellyfin, type FakeJellyfin } from "../fakes/jellyfin.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { accountResources, startFakePlexTv, type FakePlexTv } from "../fakes/plex-tv.js";
import { tempDir } from "../helpers/cli.js";
import { ARR_SECTIONS, TEST_PASS } from "../helpers/service.js";

/** What a user of the set-up has running: Plex (and plex.tv), Jellyfin, Sonarr and Radarr, each in its own path form. */
export interface SetupWorld {
  plexTv: FakePlexTv;
  plex: FakePlex;
  jellyfin: FakeJellyfin;
  sonarr: FakeArr;
  radarr: FakeArr;
  installDir: string;
  configFile: string;
  port: number;
  close(): Promise<void>;
}

const SHOWS = ["The Expanse", "Westworld", "Severance"];
const MOVIES = ["Interstellar (2014)", "Parasite (2019)"];

/**
 * The fakes with the same shows and movies under different prefixes: Sonarr
 * at /tv/, Radarr at /movies/, Plex at /data/TV/ and /data/Movies/, Jellyfin
 * at /media/TV-Shows/ and /media/Movies/; plex.tv lists the Plex server
 * (owned: a dead local address, then the working one, then a relay), a
 * shared server and a player. An install dir holds a config on a free port
 * with no Plex token yet.
 */
export async function startSetupWorld(options: { signInAfterPolls?: number; expireAfterPolls?: number } = {}): Promise<SetupWorld> {
  const plex = await startFakePlex({ sections: ARR_SECTIONS });
  for (const show of SHOWS) plex.addItem(`/data/TV/${show}/Season 1/${show} - S01E01.mkv`);
  for (const movie of MOVIES) plex.addItem(`/data/Movies/${movie}/${movie}.mkv`);
  const jellyfin = await startFakeJellyfin({
    libraries: [
      {
        name: "Shows",
        id: "a656b907eb3a73532e40e44b968d0225",
        collectionType: "tvshows",
        locations: ["/media/TV-Shows"],
        items: SHOWS.map((s) => `/media/TV-Shows/${s}`),
      },
      {
        name: "Movies",
        id: "f137a2dd21bbc1b99aa5c0f6bf02a805",
        collectionType: "movies",
        locations: ["/media/Movies"],
        items: MOVIES.map((m) => `/media/Movies/${m}/${m}.mkv`),
      },
    ],
  });
  const sonarr = await startFakeArr({ kind: "sonarr", items: SHOWS.map((s) => `/tv/${s}`) });
  const radarr = await startFakeArr({ kind: "radarr", items: MOVIES.map((m) => `/movies/${m}`) });
  const dead = await freePort();
  const plexTv = await startFakePlexTv({ ...options, resources: accountResources(plex, `http://127.0.0.1:${dead}`) });
  const installDir = tempDir("scanarr-setup-");
  const configFile = path.join(installDir, "config", "config.json");
  const port = await freePort();
  mkdirSync(path.dirname(configFile), { recursive: true });
  const config = {
    ...defaultConfig(TEST_PASS),
    SERVER_IP: "127.0.0.1",
    SERVER_PORT: port,
    SERVER_SCAN_DELAY: 0,
    SERVER_MAX_FILE_CHECKS: 0,
    PLEX_CONFIRM_SCANS: false,
    PLEX_LOCAL_URL: "http://localhost:32400",
    PLEX_TOKEN: "",
    SERVER_PATH_MAPPINGS: {},
  };
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return {
    plexTv,
    plex,
    jellyfin,
    sonarr,
    radarr,
    installDir,
    configFile,
    port,
    async close() {
      await Promise.all([plexTv.close(), plex.close(), jellyfin.close(), sonarr.close(), radarr.close()]);
    },
  };
}

/** A port nothing listens on (bound once, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The flags that answer every question of the set-up in `world`. */
export function setupFlags(world: SetupWorld): string[] {
  return [
    "--plex-url",
    world.plex.url,
    "--plex-token",
    world.plex.token,
    "--arr",
    `${world.sonarr.url},${world.sonarr.apiKey}`,
    "--arr",
    `${world.radarr.url},${world.radarr.apiKey}`,
    "--jellyfin",
    `${world.jellyfin.url},${world.jellyfin.token}`,
  ];
}
