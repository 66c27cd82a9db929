import { ArrClient, type ArrApp } from "../arr-client.js";
import { ArrTarget, arrClientOptions } from "../arr-target.js";
import type { TargetFactory } from "../factory.js";

/** Sonarr: `/api/v3/series`, and `RescanSeries` for one series (RescanSeriesCommand's `seriesId`). */
export const SONARR: ArrApp = {
  appName: "Sonarr",
  noun: "series",
  itemsPath: "/api/v3/series",
  rescan: (id) => ({ name: "RescanSeries", seriesId: id }),
};

/** A TARGETS entry of TYPE "sonarr": URL and TOKEN (the API key). */
export const createSonarrTarget: TargetFactory = (entry, deps) =>
  new ArrTarget({
    name: entry.entry.NAME,
    api: new ArrClient({ app: SONARR, ...arrClientOptions(entry, deps) }),
    clock: deps.clock,
    logger: deps.logger,
  });
