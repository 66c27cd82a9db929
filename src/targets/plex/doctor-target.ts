import { access, constants } from "node:fs/promises";
import type { Config } from "../../config/types.js";
import type { DoctorTarget } from "../../doctor/types.js";
import { PlexApiClient } from "./api.js";
import { loadLibraries } from "./library-source.js";

export interface PlexDoctorDeps {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * Plex as `doctor` and `map` see it. With the API method: its libraries over
 * HTTP with PLEX_TOKEN, and `GET /butler` to prove the token is the admin's.
 * With the scanner method: libraries from the database (or the API) and the
 * scanner executable in place.
 */
export function createPlexDoctorTarget(config: Config, deps: PlexDoctorDeps = {}): DoctorTarget {
  const identity = (path: string) => path;
  if (config.PLEX_SCAN_METHOD === "scanner") {
    return {
      name: "plex",
      where: config.USE_DOCKER ? `Plex Media Scanner in container ${config.DOCKER_NAME}` : config.PLEX_SCANNER,
      toTargetPath: identity,
      listLibraries: async () => (await loadLibraries(config)).libraries,
      checkAccess: async () => {
        if (config.USE_DOCKER) return `the scanner runs inside container ${config.DOCKER_NAME} (not checked from here)`;
        await access(config.PLEX_SCANNER, constants.X_OK).catch(() => {
          throw new Error(`PLEX_SCANNER ${config.PLEX_SCANNER} is not an executable file on this machine`);
        });
        return "Plex Media Scanner is executable";
      },
    };
  }
  const api = new PlexApiClient({ baseUrl: config.PLEX_LOCAL_URL, token: config.PLEX_TOKEN, fetch: deps.fetch, timeoutMs: deps.timeoutMs });
  return {
    name: "plex",
    where: api.where,
    toTargetPath: identity,
    listLibraries: () => api.listLibraries(),
    checkAccess: async () => {
      await api.checkAdmin();
      return config.PLEX_TOKEN === "" ? "answers without a token (an allowed network or an unclaimed server)" : "token accepted, admin";
    },
  };
}
