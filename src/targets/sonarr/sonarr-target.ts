import type { ArrApp } from "../arr-client.js";
import { arrTargetFactory } from "../arr-target.js";

/** Sonarr: `/api/v3/series`, and `RescanSeries` for one series (RescanSeriesCommand's `seriesId`). */
export const SONARR: ArrApp = {
  appName: "Sonarr",
  noun: "series",
  itemsPath: "/api/v3/series",
  rescan: (id) => ({ name: "RescanSeries", seriesId: id }),
};

/** A TARGETS entry of TYPE "sonarr": URL and TOKEN (the API key). */
export const createSonarrTarget = arrTargetFactory(SONARR);
