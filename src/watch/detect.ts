import { readFile } from "node:fs/promises";

/**
 * How a poll round notices a changed folder on the filesystem holding `root`.
 * A folder's modification time changes when an entry is added, removed or
 * renamed on local disks, NFS and SMB, but an rclone mount (FUSE) keeps
 * reporting the time it first listed (seen with rclone 1.60: new files show
 * in the listing after a VFS refresh while the folder's time stays put), and
 * mergerfs shows one branch's time: on FUSE the listing itself is compared.
 */
export async function detectChanges(root: string, readMounts: () => Promise<string> = readMountInfo): Promise<"mtime" | "listing"> {
  const text = await readMounts().catch(() => "");
  let best: { point: string; type: string } | undefined;
  for (const line of text.split("\n")) {
    const [left, right] = line.split(" - ");
    const point = left?.split(" ")[4];
    const type = right?.split(" ")[0];
    if (point === undefined || type === undefined) continue;
    const decoded = point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
    if (!isUnder(root, decoded)) continue;
    if (!best || decoded.length > best.point.length) best = { point: decoded, type };
  }
  return best?.type.startsWith("fuse") ? "listing" : "mtime";
}

function readMountInfo(): Promise<string> {
  return readFile("/proc/self/mountinfo", "utf8");
}

function isUnder(path: string, mountPoint: string): boolean {
  return mountPoint === "/" || path === mountPoint || path.startsWith(`${mountPoint}/`);
}
