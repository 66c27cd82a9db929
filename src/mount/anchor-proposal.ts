import path from "node:path";
import { createLocalPathMapper } from "../paths/local.js";
import { type Mount, mountOf } from "./mount-table.js";

/** An anchor to propose: the file on the FUSE mount that holds the libraries' folders. */
export interface AnchorProposal {
  mount: Mount;
  /** `<mount point>/.anchor`: a file to create on the drive, so it shows only while the mount is up. */
  anchor: string;
  /** The library folders (as scanarr sees them) on that mount. */
  folders: string[];
}

/**
 * Where the libraries' folders (media-server paths, taken to scanarr's view
 * through SERVER_FILE_EXIST_PATH_MAPPINGS) lie on a FUSE mount (an rclone
 * mount, mergerfs over one), the anchor that would tell a dropped mount from
 * an emptied library: on the mount holding most of them. undefined when
 * none is on a FUSE mount.
 */
export function proposeAnchor(
  libraryFolders: readonly string[],
  existMappings: Record<string, string[]>,
  mounts: readonly Mount[],
): AnchorProposal | undefined {
  const toLocal = createLocalPathMapper(existMappings);
  const byMount = new Map<string, { mount: Mount; folders: string[] }>();
  for (const folder of libraryFolders) {
    const local = toLocal(folder);
    if (!("path" in local)) continue;
    const mount = mountOf(mounts, local.path);
    if (!mount || !isFuse(mount)) continue;
    const entry = byMount.get(mount.point) ?? { mount, folders: [] };
    if (!entry.folders.includes(local.path)) entry.folders.push(local.path);
    byMount.set(mount.point, entry);
  }
  const [best] = [...byMount.values()].sort((a, b) => b.folders.length - a.folders.length);
  if (!best) return undefined;
  return { ...best, anchor: path.posix.join(best.mount.point, ".anchor") };
}

/** `fuse.rclone`, `fuse.mergerfs`, a bare `fuse`; not `fuseblk`, which is a local disk through ntfs-3g. */
function isFuse(mount: Mount): boolean {
  return mount.type === "fuse" || mount.type.startsWith("fuse.");
}

/** `ANCHORS: ["/mnt/remote/.anchor"]`, and the file to create, in the words doctor and setup share. */
export function describeAnchorProposal(proposal: AnchorProposal): string {
  const shown = proposal.folders.slice(0, 3).join(", ") + (proposal.folders.length > 3 ? ", …" : "");
  return (
    `the libraries' folders (${shown}) are on the ${proposal.mount.type} mount at ${proposal.mount.point}, and a dropped mount ` +
    `looks like emptied libraries to a media server: create the file ${path.posix.basename(proposal.anchor)} at the top of that ` +
    `mount's remote (so it shows as ${proposal.anchor} only while the mount is up) and set ANCHORS: ${JSON.stringify([proposal.anchor])}`
  );
}
