export { createPathMapper, PathError, type MappedPath, type PathMapper } from "./mapper.js";
export { classifyPath, folderToScan, isKnownFileName, type PathKind } from "./folder.js";
export { isWithin, findLibrariesFor } from "./within.js";
