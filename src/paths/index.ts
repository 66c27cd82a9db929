export { createPathMapper, PathError, type PathMapper } from "./mapper.js";
export { folderToScan, isKnownFileName } from "./folder.js";
export { isWithin, findLibrariesFor } from "./within.js";
