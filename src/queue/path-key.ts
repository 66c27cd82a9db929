/**
 * A path's key in the indexes of `scan_file` and `scan_request`: a 32-bit
 * FNV-1a hash of its UTF-16 code units. Those indexes are keyed by (scan,
 * key) rather than (scan, path): a full path is about a hundred bytes and a
 * new one lands in the middle of its scan's range, so a 1 KiB index page
 * split every few webhooks; a key of four bytes leaves the index small. Two
 * paths may share a key: every lookup compares the path as well, so the key
 * only narrows the search. Stored, so it must never change (migration 11).
 */
export function pathKey(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return hash | 0;
}
