import { sidecarOf, videosOf } from "../../paths/sidecars.js";
import type { PlexItemRef } from "./library-items-db.js";

/**
 * Finds, among the live parts of one folder (`refs`), the item of each wanted
 * file: a file's own item, or for a sidecar (paths/sidecars.ts) the item of
 * the video it belongs to, recorded under the sidecar's path with `named`
 * set (and the further videos of a folder-wide sidecar in `more`). Adds to
 * `found`; a file already found keeps its first answer.
 */
export function matchInFolder(wanted: Iterable<string>, refs: readonly PlexItemRef[], found: Map<string, PlexItemRef>): void {
  const byFile = new Map(refs.map((ref) => [ref.file, ref]));
  for (const file of wanted) {
    if (found.has(file)) continue;
    const sidecar = sidecarOf(file);
    if (!sidecar) {
      const ref = byFile.get(file);
      if (ref) found.set(file, ref);
      continue;
    }
    const [first, ...rest] = videosOf(sidecar, byFile.keys()).flatMap((video) => byFile.get(video) ?? []);
    if (first) found.set(file, { ...first, named: file, ...(rest.length > 0 ? { more: rest } : {}) });
  }
}

/** Every item a located file stands for: its own, or all its sidecar's videos'. */
export function itemsOfRef(ref: PlexItemRef): PlexItemRef[] {
  const { more, ...own } = ref;
  return [own, ...(more ?? []).map((other) => (own.named === undefined ? other : { ...other, named: own.named }))];
}

/** The folder a file sits in, with its separator, as a range of paths for an index: [from, to). */
export function folderRangeOf(file: string): { folder: string; from: string; to: string } {
  const cut = Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\"));
  const folder = file.slice(0, cut + 1);
  const separator = folder.slice(-1);
  // Every path that starts with the folder sorts before the folder with its separator's successor.
  const to = folder.slice(0, -1) + String.fromCharCode(separator.charCodeAt(0) + 1);
  return { folder, from: folder, to };
}
