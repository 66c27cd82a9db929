import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { createMountTable, parseMountPoints } from "../../src/mount/mount-table.js";

const MOUNTINFO = [
  "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
  "40 22 0:35 / /mnt/unionfs rw,nosuid - fuse.mergerfs media rw",
  "41 22 0:36 / /mnt/remote/My\\040Drive rw,nosuid - fuse.rclone gdrive: rw",
  "",
].join("\n");

describe("mount table", () => {
  it("reads mount points from mountinfo, decoding octal escapes", () => {
    expect(parseMountPoints(MOUNTINFO)).toEqual(["/", "/mnt/unionfs", "/mnt/remote/My Drive"]);
  });

  it("finds the deepest mount holding a path, by whole components", () => {
    const mountPointOf = createMountTable(new ManualClock(), 10_000, () => MOUNTINFO);
    expect(mountPointOf("/mnt/unionfs/Media/TV/e01.mkv")).toBe("/mnt/unionfs");
    expect(mountPointOf("/mnt/unionfs")).toBe("/mnt/unionfs");
    expect(mountPointOf("/mnt/unionfs2/x")).toBe("/");
    expect(mountPointOf("/mnt/remote/My Drive/TV")).toBe("/mnt/remote/My Drive");
  });

  it("re-reads the table only once it is older than its time to live, and answers undefined without /proc", () => {
    const clock = new ManualClock();
    let reads = 0;
    const mountPointOf = createMountTable(clock, 10_000, () => {
      reads += 1;
      return reads === 1 ? MOUNTINFO : undefined;
    });
    mountPointOf("/a");
    clock.advance(9_999);
    expect(mountPointOf("/mnt/unionfs/x")).toBe("/mnt/unionfs");
    expect(reads).toBe(1);
    clock.advance(1);
    expect(mountPointOf("/mnt/unionfs/x")).toBeUndefined();
    expect(reads).toBe(2);
  });
});
