import { UserError, type Library } from "../../domain.js";
import { findLibrariesFor, isWithin } from "../../paths/index.js";

/** A section id as given on the command line: a positive integer, nothing else. */
export function parseSectionId(raw: string): string {
  const text = raw.trim();
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UserError(`--section must be a positive integer, got ${JSON.stringify(raw)}`, 2);
  }
  return String(Number(text));
}

/**
 * The library that holds `folder`: the one whose location is the longest
 * prefix. Two libraries sharing that location is ambiguous, and no match is
 * an error; both list the libraries so the user can pick --section.
 */
export function findSectionFor(folder: string, libraries: readonly Library[]): Library {
  const matches = findLibrariesFor(folder, libraries);
  const best = matches[0];
  if (!best) {
    throw new UserError(`${folder} is not inside any Plex library:\n${describeLibraries(libraries)}`);
  }
  const depth = deepestLocation(best, folder);
  const tied = matches.filter((library) => deepestLocation(library, folder) === depth);
  if (tied.length > 1) {
    throw new UserError(`${folder} belongs to several libraries; pick one with --section:\n${describeLibraries(tied)}`);
  }
  return best;
}

/** The library with id `section`, checked to hold `folder`. */
export function checkSection(section: string, folder: string, libraries: readonly Library[]): Library {
  const library = libraries.find((l) => l.id === section);
  if (!library) throw new UserError(`there is no library section ${section}:\n${describeLibraries(libraries)}`, 2);
  if (!library.locations.some((location) => isWithin(location, folder))) {
    throw new UserError(
      `${folder} is not inside section ${section} (${library.title}); Plex would scan nothing:\n${describeLibraries([library])}`,
    );
  }
  return library;
}

function deepestLocation(library: Library, folder: string): number {
  let depth = -1;
  for (const location of library.locations) {
    if (isWithin(location, folder)) depth = Math.max(depth, location.split(/[\\/]+/).filter(Boolean).length);
  }
  return depth;
}

/** Libraries as indented lines, for error messages and `scan --list`. */
export function describeLibraries(libraries: readonly Library[]): string {
  if (libraries.length === 0) return "  (no libraries)";
  return libraries
    .map((l) => `  ${l.id}: ${l.title} [${l.type}] ${l.locations.length ? l.locations.join(", ") : "(no folders)"}`)
    .join("\n");
}
