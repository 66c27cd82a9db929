import {
  AnchorMissingError,
  TargetAuthError,
  TargetFatalError,
  TargetNothingToDoError,
  TargetUnavailableError,
  type Library,
  type Target,
  type TargetLibraries,
  type TargetRuntime,
} from "../domain.js";
import { sendUngated, type AnchorSend } from "./anchor-gate.js";
import type { DeliveryJob, LibraryRef } from "../queue/types.js";

/** What one delivery attempt came to; the scheduler turns it into queue records. */
export type DeliveryOutcome =
  /** `itemsOnly`: the items were refreshed and no folder was scanned, so nothing follows the delivery (no confirmation). */
  | { kind: "done"; libraries: LibraryRef[]; itemsOnly?: boolean; refreshed?: number }
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

/**
 * Resolves the libraries holding the job's folder, in this target's path
 * form, and asks the target to scan it: in each library when the target
 * scans per library (Plex: a folder may sit in a 4K and a 1080p library),
 * else once. Each scan and item-refresh call goes through `send`, the anchor
 * gate (AnchorGate.send): out in the same turn as a check begun after it was
 * asked answers present; when an anchor is missing nothing more is sent
 * ("held": the libraries already scanned are scanned again with the rest).
 * The job's `refresh` files go to the target's `refreshItems`
 * where it has one (docs/item-refresh.md): instead of the scan when only
 * sidecars were named and the server knows every item, else after it
 * (unless the target's confirmation refreshes them). With `library` (a
 * confirmation's re-scan) only that library is scanned. This is the one
 * place that calls a target's scan. Never throws: every failure comes back
 * as an outcome.
 */
export async function deliverFolder(
  dt: DeliveryTarget,
  job: Pick<DeliveryJob, "folder" | "files" | "refresh" | "scanFolder">,
  send: AnchorSend = sendUngated,
  options: DeliverOptions = {},
): Promise<DeliveryOutcome> {
  const folder = dt.toTargetPath(job.folder);
  const files = job.files.map((f) => dt.toTargetPath(f));
  const refresh = dt.target.refreshItems ? (job.refresh ?? []).map((f) => dt.toTargetPath(f)) : [];
  let matches: Library[] | null = null;
  try {
    matches = options.library ? [libraryOf(dt, options.library)] : await dt.libraries.librariesFor(folder);
    if (matches.length === 0) return { kind: "no-library", error: describeNoLibrary(dt, folder) };
    const scanned = dt.target.scansPerLibrary ? matches : matches.slice(0, 1);
    const libraries = matches.map(refOf);
    let refreshed: RefreshTally | undefined;
    // Only sidecars were asked for: refreshing the items they belong to is all, when the server knows every one.
    if (refresh.length > 0 && job.scanFolder === false) {
      refreshed = await refreshIn(dt.target, scanned, refresh, send);
      if (refreshed.unknown.size === 0) return { kind: "done", libraries, itemsOnly: true, refreshed: refreshed.count };
    }
    for (const library of scanned) await send(() => dt.target.scan(folder, library, files));
    // Known items are refreshed now unless the confirmation refreshes them once it finds them.
    if (refresh.length > 0 && !refreshed && !options.refreshAfterConfirmation)
      refreshed = await refreshIn(dt.target, scanned, refresh, send);
    return { kind: "done", libraries, ...(refreshed ? { refreshed: refreshed.count } : {}) };
  } catch (error) {
    if (error instanceof AnchorMissingError) return { kind: "held" };
    if (error instanceof TargetNothingToDoError) return { kind: "nothing", error: error.message };
    const refs = matches ? matches.map(refOf) : null;
    return { kind: classify(error), error: describeError(error), libraries: refs };
  }
}

export interface DeliverOptions {
  /** The target's confirmation refreshes the named items once it finds them (Plex after-scan work): not before. */
  refreshAfterConfirmation?: boolean;
  /** Scan the folder in this library only, as the target last listed it (a confirmation's re-scan). */
  library?: LibraryRef;
}

/** A library by its reference: as the target last listed it, else the reference alone (the server knows its id). */
function libraryOf(dt: DeliveryTarget, ref: LibraryRef): Library {
  return dt.libraries.knownLibraries()?.find((l) => l.id === ref.id) ?? { ...ref, type: "", locations: [] };
}

interface RefreshTally {
  count: number;
  /** Files no library of the target has an item for. */
  unknown: Set<string>;
}

/** Refreshes the items of `files` in each library (a folder may sit in two Plex libraries); unknown means unknown in all of them. */
async function refreshIn(target: Target, libraries: readonly Library[], files: readonly string[], send: AnchorSend): Promise<RefreshTally> {
  const refresh = target.refreshItems?.bind(target);
  let count = 0;
  let unknown = new Set(files);
  for (const library of libraries) {
    const report = refresh ? await send(() => refresh(files, library)) : { refreshed: 0, unknown: files };
    count += report.refreshed;
    const missing = new Set(report.unknown);
    unknown = new Set([...unknown].filter((f) => missing.has(f)));
  }
  return { count, unknown };
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
