import { deleting, withDeletedFiles, type ArrTrigger } from "./arr.js";
import { readFile, readFiles, readRenamedFiles, readRootFolder, type ArrPayload } from "./arr-payload.js";
import { getField } from "./read.js";

/**
 * "On Import Complete" (v4.0.6+) reuses eventType Download but sends
 * `episodeFiles[]` instead of `episodeFile`; the key tells them apart.
 */
function readImported(payload: ArrPayload) {
  return getField(payload.body, "episodeFiles") === undefined ? readFile(payload, "episodeFile") : readFiles(payload, "episodeFiles");
}

export const sonarr: ArrTrigger = {
  source: "sonarr",
  rootKey: "series",
  rootPathKey: "path",
  shapeKeys: ["series", "episodes", "episodeFile", "episodeFiles", "renamedEpisodeFiles"],
  scanEvents: {
    Download: withDeletedFiles(readImported),
    Rename: (payload) => readRenamedFiles(payload, "renamedEpisodeFiles"),
    EpisodeFileDelete: deleting((payload) => readFile(payload, "episodeFile")),
    SeriesDelete: readRootFolder,
  },
  quietEvents: ["Grab", "SeriesAdd", "Health", "HealthRestored", "ApplicationUpdate", "ManualInteractionRequired"],
  // One Download per file comes first; Import Complete (`episodeFiles[]`) closes the import.
  endsBatch: (event, body) => event === "Download" && getField(body, "episodeFiles") !== undefined,
};
