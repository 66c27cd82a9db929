import { describe, expect, it } from "vitest";
import { createQueue, request, TV } from "./helpers.js";

describe("the history of unconfirmed scans", () => {
  it("keeps as many unconfirmed scans as done ones, the newest, without counting one against the other", () => {
    const { queue, clock, db, reads } = createQueue({ delayMs: 0, history: { done: 3 } });
    const finish = (folder: string, state: "done" | "unconfirmed") => {
      queue.enqueue([{ ...request(folder), files: [`${folder}/e.mkv`] }]);
      clock.advance(1_000);
      const [job] = queue.claimDue("plex", 1);
      if (!job) throw new Error(`no delivery of ${folder} came due`);
      expect(queue.recordDelivered(job, [TV], true)).toBe(true);
      const [row] = queue.listConfirming("plex");
      if (!row) throw new Error(`${folder} is not being confirmed`);
      const detail = state === "done" ? "confirmed 1 s after the first request" : "unconfirmed: 1 file not as expected";
      queue.recordConfirmed([{ deliveryId: row.deliveryId, scanId: row.scanId, state, detail, error: null, progress: row.progress }]);
    };
    for (let i = 0; i < 5; i++) finish(`/data/TV/Unconfirmed ${i}`, "unconfirmed");
    for (let i = 0; i < 2; i++) finish(`/data/TV/Done ${i}`, "done");
    expect(reads.listUnconfirmed().map((s) => s.folder)).toEqual([
      "/data/TV/Unconfirmed 4",
      "/data/TV/Unconfirmed 3",
      "/data/TV/Unconfirmed 2",
    ]);
    expect(
      reads
        .recent(20)
        .filter((s) => s.state === "done")
        .map((s) => s.folder),
    ).toEqual(["/data/TV/Done 1", "/data/TV/Done 0"]);
    // The pruned scans' deliveries went with them.
    expect(reads.recent(20)).toHaveLength(5);
    expect(db.prepare("SELECT COUNT(*) AS n FROM scan_delivery").get()).toEqual({ n: 5 });
  });
});
