import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Library, Target } from "../../../src/domain.js";
import { systemClock } from "../../../src/lib/clock.js";
import { openDatabase, probeWrite } from "../../../src/queue/storage/database.js";
import { ScanQueue } from "../../../src/queue/scan-queue.js";
import { startDelivery } from "../../../src/delivery/scheduler.js";
import { createSpaceReserve } from "../../../src/queue/storage/space-reserve.js";
import { createStorageWatch } from "../../../src/queue/storage/storage-watch.js";
import { recordingLogger } from "../../helpers/log-lines.js";
import { canMountSmallDisk, mountDiskForTest } from "../../helpers/small-disk.js";
import { deliveryTargetOf } from "../helpers.js";

const TV: Library = { id: "2", title: "TV", type: "show", locations: ["/data/TV"] };

describe.skipIf(!canMountSmallDisk)("a delivery under way when the disk fills", () => {
  it("has its outcome recorded with the reserve's bytes, so a restart does not send it again", async () => {
    const disk = mountDiskForTest(8 * 1024 * 1024);
    const file = path.join(disk.dir, "scanarr.db");
    const db = openDatabase(file);
    const { logger, at } = recordingLogger();
    const queue = new ScanQueue({ db, clock: systemClock, targets: ["plex"], delayMs: 0, logger });
    const reserve = createSpaceReserve(path.join(disk.dir, "scanarr.reserve"));
    expect(reserve.ensure()).toBe(true);
    const storage = createStorageWatch({
      database: file,
      clock: systemClock,
      logger,
      probe: () => probeWrite(db),
      reserve,
      freeBytes: disk.freeBytes,
    });
    let answer: () => void = () => undefined;
    const scans: string[] = [];
    const target: Target = {
      name: "plex",
      scansPerLibrary: true,
      listLibraries: async () => [TV],
      scan: (folder) =>
        new Promise<void>((resolve) => {
          scans.push(folder);
          answer = resolve;
        }),
    };
    const delivery = startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock: systemClock, logger, storage });
    queue.enqueue([{ folder: "/data/TV/Show/Season 1", source: "sonarr", event: "Download" }]);
    await expect.poll(() => scans).toEqual(["/data/TV/Show/Season 1"]);

    // The disk fills while Plex works on the scan; the next write fails and the reserve goes.
    disk.fill();
    for (let i = 0; storage.problem() === undefined && i < 10_000; i++) {
      try {
        queue.enqueue([{ folder: `/data/TV/Other ${i}`, source: "sonarr", event: "Download" }]);
      } catch (error) {
        expect(storage.report(error)).toBe(true);
      }
    }
    expect(storage.problem()).toMatch(/is full/);
    expect(existsSync(path.join(disk.dir, "scanarr.reserve"))).toBe(false);
    expect(at("error")[0]).toMatch(/released the 1024 KiB kept aside for the deliveries under way/);

    // Plex accepts the scan: the outcome is written into the released bytes, though the disk is "full".
    answer();
    await expect
      .poll(() => (db.prepare("SELECT state FROM scan_delivery WHERE scan_id = 1").get() as { state: string }).state, { timeout: 5_000 })
      .toBe("done");
    await delivery.stop();
    storage.stop();
    db.close();

    // A restart finds nothing to send again.
    const again = openDatabase(file);
    const restarted = new ScanQueue({ db: again, clock: systemClock, targets: ["plex"], delayMs: 0, logger });
    expect(restarted.claimDue("plex", 10).map((j) => j.folder)).not.toContain("/data/TV/Show/Season 1");
    again.close();
    expect(scans).toEqual(["/data/TV/Show/Season 1"]);
  });
});
