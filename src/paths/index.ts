export { createPathMapper, PathError, quotePath, type MappedPath, type PathMapper } from "./mapper.js";
export { classifyPath, folderToScan, isKnownFileName, type PathKind } from "./folder.js";
export { isWithin, findLibrariesFor, createLibraryMatcher, matcherOf, type LibraryMatcher } from "./within.js";
export {
  controlCharacterIn,
  formatPath,
  isAbsolutePath,
  isPrefixOf,
  MAX_PATH_BYTES,
  parentOf,
  parsePath,
  PathSyntaxError,
  separatorFor,
  styleOf,
  tryParsePath,
  type ParsedPath,
  type PathStyle,
} from "./parse.js";
export { matchIgnoreList } from "./ignore.js";
