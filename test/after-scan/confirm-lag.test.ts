import { afterEach, describe, expect, it } from "vitest";
import { nextLookAt, type ConfirmProgressRecord } from "../../src/delivery/after-scan/progress.js";
import { startRig, type AfterScanRig } from "./harness.js";

let rig: AfterScanRig | undefined;
afterEach(async () => {
  await rig?.stop();
  await rig?.plex.close();
  rig = undefined;
});

const SETTINGS = { pollMs: 10_000, maxWaitMs: 1_800_000, rescanDelayMs: 120_000, confirmFiles: true, server: "Plex" };
const folderOf = (i: number) => `/data/TV/Show ${i}/Season 1`;

/** Moves the rig's clock a second at a time (each step's calls finished) until `at`. */
async function runTo(r: AfterScanRig, at: number): Promise<void> {
  await r.runUntil(() => r.clock.now() >= at, `the clock at ${at}`, 1_000);
}

/** Each confirming delivery's record: its sections' looks, and when it was last saved. */
function records(r: AfterScanRig): Array<{ looks: number[]; updatedAt: number }> {
  const rows = r.db
    .prepare("SELECT confirm, updated_at AS updatedAt FROM scan_delivery WHERE state = 'confirming' ORDER BY id")
    .all() as Array<{
    confirm: string | null;
    updatedAt: number;
  }>;
  return rows.map((row) => ({
    looks: ((JSON.parse(row.confirm ?? "null") as ConfirmProgressRecord | null)?.sections ?? []).map((s) => s.looks ?? 0),
    updatedAt: row.updatedAt,
  }));
}

describe("confirmation while the server lags", () => {
  it("looks one poll apart three times, then twice as far apart each time, and at the re-scan delay itself", () => {
    const section = { id: "2", title: "TV", scannedAt: 0, rescanned: false };
    const at = (looks: number, now: number) => nextLookAt({ sections: [{ ...section, looks }] }, now, SETTINGS);
    expect([at(0, 0), at(1, 10_000), at(2, 20_000), at(3, 30_000), at(4, 50_000), at(5, 90_000)]).toEqual([
      10_000, 20_000, 30_000, 50_000, 90_000, 120_000,
    ]);
    // Past the re-scan delay the gap stops growing at 8 polls (the longest wait for a refreshing section is far).
    expect(at(9, 130_000)).toBe(210_000);
    // A re-scan held by a missing anchor is tried at the next poll; a settled section is not looked at.
    expect(nextLookAt({ sections: [{ ...section, looks: 6, rescanHeld: 100_000 }] }, 100_000, SETTINGS)).toBe(110_000);
    const settled = { ...section, result: { kind: "confirmed" as const, items: [], notConfirmed: [] } };
    expect(nextLookAt({ sections: [settled, { ...section, looks: 4 }] }, 50_000, SETTINGS)).toBe(90_000);
  });

  it("asks Plex about a scan whose file does not appear at 10, 20, 30, 50 and 90 s, not at every poll, and still scans it once more at 120 s", async () => {
    rig = await startRig({ PLEX_CONFIRM_RESCAN_DELAY: 120 });
    const r = rig;
    for (let i = 0; i < 3; i++) r.enqueue({ folder: folderOf(i), source: "sonarr", event: "Download", files: [`${folderOf(i)}/e.mkv`] });
    await r.runUntil(() => r.plex.refreshes.length === 3, "three scan calls");
    const deliveredAt = r.clock.now();
    await runTo(r, deliveredAt + 45_000);
    // The look at 30 s was the last one: the poll interval at 40 s asked about nothing.
    expect(records(r).map((x) => x.looks)).toEqual([[3], [3], [3]]);
    const before = r.plex.requests.length;
    await runTo(r, deliveredAt + 115_000);
    expect(records(r).map((x) => x.looks)).toEqual([[5], [5], [5]]);
    // Two polls (50 s and 90 s) of eight intervals asked Plex: one sections call each, and the folders' lookups.
    expect(r.plex.requests.slice(before).filter((q) => q.url === "/library/sections").length).toBe(2);
    expect(r.plex.refreshes).toHaveLength(3);
    await runTo(r, deliveredAt + 125_000);
    expect(r.plex.refreshes).toHaveLength(6);
    expect(records(r).map((x) => x.looks)).toEqual([[0], [0], [0]]);
  });

  it("asks at every poll while the section refreshes, and spaces nothing out for it", async () => {
    rig = await startRig({}, { refreshDuration: "manual" });
    const r = rig;
    r.enqueue({ folder: folderOf(0), source: "sonarr", event: "Download", files: [`${folderOf(0)}/e.mkv`] });
    await r.runUntil(() => r.plex.refreshes.length === 1, "the scan call");
    const deliveredAt = r.clock.now();
    const before = r.plex.requests.length;
    await runTo(r, deliveredAt + 55_000);
    expect(r.plex.requests.slice(before).filter((q) => q.url === "/library/sections").length).toBe(5);
    expect(records(r).map((x) => x.looks)).toEqual([[0]]);
  });

  it("looks at 250 scans due together in one poll with one sections call, a slice at a time", async () => {
    rig = await startRig({ SERVER_DELIVERY_CONCURRENCY: 16 });
    const r = rig;
    for (let i = 0; i < 250; i++) r.enqueue({ folder: folderOf(i), source: "sonarr", event: "Download", files: [`${folderOf(i)}/e.mkv`] });
    await r.runUntil(() => r.plex.refreshes.length === 250, "250 scan calls", 1_000, 60_000);
    const deliveredAt = r.clock.now();
    const before = r.plex.requests.length;
    await runTo(r, deliveredAt + 10_000);
    expect(r.plex.requests.slice(before).filter((q) => q.url === "/library/sections").length).toBe(1);
    expect(records(r).every((x) => x.looks[0] === 1)).toBe(true);
  });

  it("confirms a new scan one poll after its scan call while an older one waits far apart", async () => {
    rig = await startRig({ PLEX_CONFIRM_RESCAN_DELAY: 120 });
    const r = rig;
    r.enqueue({ folder: folderOf(0), source: "sonarr", event: "Download", files: [`${folderOf(0)}/e.mkv`] });
    await r.runUntil(() => r.plex.refreshes.length === 1, "the first scan call");
    await runTo(r, r.clock.now() + 52_000);
    // The older scan's next look is at 90 s; the new one's at one poll after its scan call.
    const file = `${folderOf(1)}/e.mkv`;
    r.plex.addFile(file);
    r.enqueue({ folder: folderOf(1), source: "sonarr", event: "Download", files: [file] });
    await r.runUntil(() => r.plex.refreshes.length === 2, "the second scan call");
    const scannedAt = r.clock.now();
    await r.runUntil(() => r.scanOf(folderOf(1))?.state === "done", "the new scan to be confirmed");
    expect(r.clock.now() - scannedAt).toBeLessThanOrEqual(11_000);
  });
});
