import { deleting, withDeletedFiles, type ArrTrigger } from "./arr.js";
import { readFile, readRenamedFiles, readRootFolder } from "./arr-payload.js";

export const radarr: ArrTrigger = {
  source: "radarr",
  rootKey: "movie",
  rootPathKey: "folderPath",
  shapeKeys: ["movie", "remoteMovie", "movieFile", "renamedMovieFiles"],
  scanEvents: {
    Download: withDeletedFiles((payload) => readFile(payload, "movieFile")),
    Rename: (payload) => readRenamedFiles(payload, "renamedMovieFiles"),
    MovieFileDelete: deleting((payload) => readFile(payload, "movieFile")),
    MovieDelete: readRootFolder,
  },
  quietEvents: ["Grab", "MovieAdded", "Health", "HealthRestored", "ApplicationUpdate", "ManualInteractionRequired"],
  // One Download per movie import: its one file is the whole batch.
  endsBatch: (event) => event === "Download",
};
