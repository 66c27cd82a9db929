import { ArrClient, type ArrApp } from "../arr-client.js";
import { ArrTarget, arrClientOptions } from "../arr-target.js";
import type { TargetFactory } from "../factory.js";

/** Radarr: `/api/v3/movie`, and `RescanMovie` for one movie (RescanMovieCommand's `movieId`). */
export const RADARR: ArrApp = {
  appName: "Radarr",
  noun: "movie",
  itemsPath: "/api/v3/movie",
  rescan: (id) => ({ name: "RescanMovie", movieId: id }),
};

/** A TARGETS entry of TYPE "radarr": URL and TOKEN (the API key). */
export const createRadarrTarget: TargetFactory = (entry, deps) =>
  new ArrTarget({
    name: entry.entry.NAME,
    api: new ArrClient({ app: RADARR, ...arrClientOptions(entry, deps) }),
    clock: deps.clock,
    logger: deps.logger,
  });
