import { deleting, withDeletedFiles, type ArrTrigger } from "./arr.js";
import { readFile, readFiles, readRenamedFiles, readRootFolder } from "./arr-payload.js";

export const readarr: ArrTrigger = {
  source: "readarr",
  rootKey: "author",
  rootPathKey: "path",
  shapeKeys: ["author", "book", "books", "bookFiles", "bookFile", "renamedBookFiles"],
  scanEvents: {
    Download: withDeletedFiles((payload) => readFiles(payload, "bookFiles")),
    Rename: (payload) => readRenamedFiles(payload, "renamedBookFiles"),
    BookFileDelete: deleting((payload) => readFile(payload, "bookFile")),
    Retag: (payload) => readFile(payload, "bookFile"),
    AuthorDelete: readRootFolder,
    // The payload names no book folder, so the author folder is the narrowest safe scan.
    BookDelete: readRootFolder,
  },
  quietEvents: ["Grab", "AuthorAdded", "Health", "HealthRestored", "ApplicationUpdate"],
  // One Download per book import, naming all its files.
  endsBatch: (event) => event === "Download",
};
