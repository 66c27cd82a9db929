import { describe, expect, it } from "vitest";
import { detectChanges } from "../../src/watch/detect.js";

// Lines in /proc/self/mountinfo's format: the mount point is field 5, the type follows " - ".
const MOUNTINFO = [
  "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
  "90 22 0:50 / /mnt/remote rw,nosuid,nodev,relatime shared:60 - fuse.rclone gdrive: rw,user_id=0,group_id=0",
  "91 22 0:51 / /mnt/unionfs rw,relatime shared:61 - fuse.mergerfs local:remote rw",
  "92 22 0:52 / /mnt/nas\\040share rw,relatime shared:62 - nfs4 nas:/share rw",
].join("\n");

describe("how a poll round detects changed folders", () => {
  const detect = (root: string) => detectChanges(root, async () => MOUNTINFO);

  it("compares listings on rclone and mergerfs mounts (FUSE keeps stale folder times)", async () => {
    expect(await detect("/mnt/remote/Media/TV")).toBe("listing");
    expect(await detect("/mnt/unionfs")).toBe("listing");
  });

  it("compares folder times on local disks and NFS, matching mount points by whole components", async () => {
    expect(await detect("/srv/media")).toBe("mtime");
    expect(await detect("/mnt/nas share/TV")).toBe("mtime");
    expect(await detect("/mnt/remote2/TV")).toBe("mtime");
  });

  it("falls back to folder times when the mount table cannot be read", async () => {
    expect(await detectChanges("/mnt/remote", () => Promise.reject(new Error("no /proc")))).toBe("mtime");
  });
});
