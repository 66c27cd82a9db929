import {
  TargetAuthError,
  TargetFatalError,
  TargetNothingToDoError,
  TargetUnavailableError,
  type Library,
  type Target,
  type TargetLibraries,
  type TargetRuntime,
} from "../domain.js";
import { findLibrariesFor } from "../paths/index.js";
import type { DeliveryJob, LibraryRef } from "./types.js";

/** What one delivery attempt came to; the scheduler turns it into queue records. */
export type DeliveryOutcome =
  | { kind: "done"; libraries: LibraryRef[] }
  | { kind: "unavailable" | "auth" | "fatal"; error: string; libraries: LibraryRef[] | null }
  | { kind: "no-library"; error: string }
  /** The target said it has nothing to do for this folder (TargetNothingToDoError): skipped there, not a failure. */
  | { kind: "nothing"; error: string }
  /** An anchor was missing right before a scan call: nothing more was sent, and the claim goes back as it was. */
  | { kind: "held" };

/** A target as delivery sees it (the one contract, domain.ts): the server, its library list, its own path form. */
export type DeliveryTarget = Pick<TargetRuntime, "target" | "toTargetPath"> & {
  readonly libraries: Pick<TargetLibraries, "librariesFor" | "knownLibraries">;
};

/** A bare Target (tests, the scanner) as a delivery target: its own path form, a fresh library list each time. */
export function deliveryTargetOf(target: Target): DeliveryTarget {
  let known: Library[] | undefined;
  return {
    target,
    libraries: {
      librariesFor: async (folder) => {
        known = await target.listLibraries();
        return findLibrariesFor(folder, known);
      },
      knownLibraries: () => known,
    },
    toTargetPath: (path) => path,
  };
}

/**
 * Resolves the libraries holding the job's folder, in this target's path
 * form, and asks the target to scan it: in each library when the target
 * scans per library (Plex: a folder may sit in a 4K and a 1080p library),
 * else once. `ready`, when given, is asked right before each scan call, and
 * the call is made in the same turn as it answers true; on false nothing
 * more is sent ("held": the libraries already scanned are scanned again with
 * the rest). Never throws: every failure comes back as an outcome.
 */
export async function deliverFolder(
  dt: DeliveryTarget,
  job: Pick<DeliveryJob, "folder" | "files">,
  ready?: () => Promise<boolean>,
): Promise<DeliveryOutcome> {
  const folder = dt.toTargetPath(job.folder);
  const files = job.files.map((f) => dt.toTargetPath(f));
  let matches: Library[] | null = null;
  try {
    matches = await dt.libraries.librariesFor(folder);
    if (matches.length === 0) return { kind: "no-library", error: describeNoLibrary(dt, folder) };
    const scanned = dt.target.scansPerLibrary ? matches : matches.slice(0, 1);
    for (const library of scanned) {
      if (ready && !(await ready())) return { kind: "held" };
      await dt.target.scan(folder, library, files);
    }
    return { kind: "done", libraries: matches.map(refOf) };
  } catch (error) {
    if (error instanceof TargetNothingToDoError) return { kind: "nothing", error: error.message };
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

function describeNoLibrary(dt: DeliveryTarget, folder: string): string {
  const locations = (dt.libraries.knownLibraries() ?? []).flatMap((l) => l.locations.map((loc) => `${l.title}=${loc}`));
  const shown = locations.slice(0, 8).join(", ") + (locations.length > 8 ? `, … (${locations.length} in all)` : "");
  return `no library of ${dt.target.name} holds ${folder} (locations: ${shown || "none"})`;
}

function refOf(library: Library): LibraryRef {
  return { id: library.id, title: library.title };
}
