import type { ArrTargetApp } from "./client.js";
import { arrTargetFactory } from "./target.js";

/** Radarr: `/api/v3/movie`, and `RescanMovie` for one movie (RescanMovieCommand's `movieId`). */
export const RADARR: ArrTargetApp = { kind: "radarr", rescan: (id) => ({ name: "RescanMovie", movieId: id }) };

/** A TARGETS entry of TYPE "radarr": URL and TOKEN (the API key). */
export const createRadarrTarget = arrTargetFactory(RADARR);
