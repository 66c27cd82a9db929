import type { ArrTargetApp } from "./client.js";
import { arrTargetFactory } from "./target.js";

/** Sonarr: `/api/v3/series`, and `RescanSeries` for one series (RescanSeriesCommand's `seriesId`). */
export const SONARR: ArrTargetApp = { kind: "sonarr", rescan: (id) => ({ name: "RescanSeries", seriesId: id }) };

/** A TARGETS entry of TYPE "sonarr": URL and TOKEN (the API key). */
export const createSonarrTarget = arrTargetFactory(SONARR);
