import { TargetAuthError, TargetFatalError, TargetUnavailableError, type Library, type Target } from "../domain.js";
import { findLibrariesFor } from "../paths/index.js";
import type { LibraryRef } from "./types.js";

/** What one delivery attempt came to; the scheduler turns it into queue records. */
export type DeliveryOutcome =
  | { kind: "done"; libraries: LibraryRef[] }
  | { kind: "unavailable" | "auth" | "fatal"; error: string; libraries: LibraryRef[] | null }
  | { kind: "no-library"; error: string };

/**
 * Resolves the libraries holding `folder` and asks the target to scan it in
 * each (a folder may sit in several, e.g. a 4K and a 1080p library). Never
 * throws: every failure comes back as an outcome.
 */
export async function deliverFolder(target: Target, folder: string): Promise<DeliveryOutcome> {
  let matches: Library[] | null = null;
  try {
    const libraries = await target.listLibraries();
    matches = findLibrariesFor(folder, libraries);
    if (matches.length === 0) return { kind: "no-library", error: describeNoLibrary(target.name, folder, libraries) };
    for (const library of matches) await target.scan(folder, library);
    return { kind: "done", libraries: matches.map(refOf) };
  } catch (error) {
    const refs = matches ? matches.map(refOf) : null;
    return { kind: classify(error), error: describeError(error), libraries: refs };
  }
}

function classify(error: unknown): "unavailable" | "auth" | "fatal" {
  if (error instanceof TargetAuthError) return "auth";
  if (error instanceof TargetFatalError) return "fatal";
  if (error instanceof TargetUnavailableError) return "unavailable";
  // An unexpected error is most likely transient (or our bug): retrying keeps the scan.
  return "unavailable";
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function describeNoLibrary(target: string, folder: string, libraries: Library[]): string {
  const locations = libraries.flatMap((l) => l.locations.map((loc) => `${l.title}=${loc}`));
  const shown = locations.slice(0, 8).join(", ") + (locations.length > 8 ? `, … (${locations.length} in all)` : "");
  return `no library of ${target} contains ${folder} (locations: ${shown || "none"})`;
}

function refOf(library: Library): LibraryRef {
  return { id: library.id, title: library.title };
}
