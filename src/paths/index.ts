export { createPathMapper, PathError, quotePath, type PathMapper } from "./mapper.js";
export { folderToScan, isKnownFileName } from "./folder.js";
export { isWithin, findLibrariesFor, createLibraryMatcher, type LibraryMatcher } from "./within.js";
export {
  formatPath,
  isAbsolutePath,
  MAX_PATH_BYTES,
  parsePath,
  PathSyntaxError,
  separatorFor,
  styleOf,
  type ParsedPath,
  type PathStyle,
} from "./parse.js";
