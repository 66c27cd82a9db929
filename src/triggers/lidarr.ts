import { withDeletedFiles, type ArrTrigger } from "./arr.js";
import { readFile, readFiles, readRenamedFiles, readRootFolder } from "./arr-payload.js";

export const lidarr: ArrTrigger = {
  source: "lidarr",
  rootKey: "artist",
  rootPathKey: "path",
  shapeKeys: ["artist", "album", "albums", "tracks", "trackFiles", "trackFile", "renamedTrackFiles"],
  scanEvents: {
    Download: withDeletedFiles((payload) => readFiles(payload, "trackFiles")),
    Rename: (payload) => readRenamedFiles(payload, "renamedTrackFiles"),
    // Retag rewrote the file's tags in place: Plex only notices on a rescan.
    Retag: (payload) => readFile(payload, "trackFile"),
    ArtistDelete: readRootFolder,
    // The payload names no album folder, so the artist folder is the narrowest safe scan.
    AlbumDelete: readRootFolder,
  },
  quietEvents: ["Grab", "ArtistAdd", "DownloadFailure", "ImportFailure", "Health", "HealthRestored", "ApplicationUpdate"],
  // One Download per album import, naming all its tracks.
  endsBatch: (event) => event === "Download",
};
