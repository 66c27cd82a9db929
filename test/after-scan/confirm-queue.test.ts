import { afterEach, describe, expect, it } from "vitest";
import { startRig, type AfterScanRig } from "./harness.js";

const SEASON = "/data/TV/Show/Season 1";
const EPISODE = `${SEASON}/Show - S01E01.mkv`;

let rig: AfterScanRig | undefined;
afterEach(async () => {
  await rig?.stop();
  await rig?.plex.close();
  rig = undefined;
});

const stateOf = (r: AfterScanRig, folder = SEASON) => r.scanOf(folder)?.state;

describe("confirmation through the queue", () => {
  it("confirms an import once Plex lists it, analyzes its item once and records the time from the first request", async () => {
    rig = await startRig({ PLEX_ANALYZE_TYPE: "basic" }, { refreshDuration: 2 });
    rig.plex.addFile(EPISODE);
    rig.enqueue({ folder: SEASON, source: "sonarr", event: "Download", files: [EPISODE] });
    await rig.runUntil(() => stateOf(rig as AfterScanRig) === "done", "the scan to be confirmed");
    const item = rig.plex.itemOf(EPISODE);
    expect(item).toBeDefined();
    expect(rig.plex.analyzed).toEqual([item?.ratingKey]);
    const delivery = rig.scanOf(SEASON)?.deliveries[0];
    expect(delivery?.state).toBe("done");
    expect(delivery?.detail).toMatch(/^confirmed \d+ s after the first request; analyzed 1 item/);
    expect(delivery?.confirmedAfterMs).toBeGreaterThanOrEqual(10_000);
    expect(rig.plex.refreshes).toEqual([{ sectionId: "2", path: SEASON }]);
    // Later polls find nothing confirming: no second analyze, no second scan.
    rig.clock.advance(120_000);
    await rig.runUntil(() => true, "nothing");
    expect(rig.plex.analyzed).toHaveLength(1);
    expect(rig.plex.refreshes).toHaveLength(1);
  });

  it("polls the sections once per interval for every waiting scan, not once per scan", async () => {
    rig = await startRig({}, { refreshDuration: "manual" });
    const folders = ["/data/TV/A/Season 1", "/data/TV/B/Season 1", "/data/TV/C/Season 1"];
    for (const folder of folders) rig.enqueue({ folder, source: "sonarr", event: "Download", files: [`${folder}/e.mkv`] });
    await rig.runUntil(() => rig?.plex.refreshes.length === 3, "three scan calls");
    const sectionsCalls = () =>
      rig?.plex.requests.filter((r) => r.url.startsWith("/library/sections?") || r.url === "/library/sections").length ?? 0;
    const before = sectionsCalls();
    rig.clock.advance(10_000);
    await rig.runUntil(() => sectionsCalls() > before, "a poll");
    expect(sectionsCalls() - before).toBe(1);
    expect(folders.map((f) => stateOf(rig as AfterScanRig, f))).toEqual(["confirming", "confirming", "confirming"]);
  });

  it("scans the folder once more when the file does not appear, then marks the scan unconfirmed with the missing file", async () => {
    rig = await startRig();
    rig.enqueue({ folder: SEASON, source: "sonarr", event: "Download", files: [EPISODE] });
    await rig.runUntil(() => stateOf(rig as AfterScanRig) === "unconfirmed", "the scan to be unconfirmed", 5_000);
    expect(rig.plex.refreshes).toEqual([
      { sectionId: "2", path: SEASON },
      { sectionId: "2", path: SEASON },
    ]);
    const scan = rig.scanOf(SEASON);
    expect(scan?.deliveries[0]?.state).toBe("unconfirmed");
    expect(scan?.deliveries[0]?.lastError).toContain(EPISODE);
    expect(scan?.deliveries[0]?.confirmedAfterMs).toBeNull();
    expect(rig.reads.listUnconfirmed().map((s) => s.folder)).toEqual([SEASON]);
    expect(rig.lines.some((l) => String(l.msg).startsWith("scan unconfirmed") && JSON.stringify(l.missing).includes(EPISODE))).toBe(true);
  });

  it("resumes a confirmation interrupted by a restart without scanning again", async () => {
    rig = await startRig({ PLEX_ANALYZE_TYPE: "basic" }, { refreshDuration: "manual" });
    rig.plex.addFile(EPISODE);
    rig.enqueue({ folder: SEASON, source: "sonarr", event: "Download", files: [EPISODE] });
    await rig.runUntil(() => stateOf(rig as AfterScanRig) === "confirming" && (rig?.plex.refreshes.length ?? 0) === 1, "the scan call");
    rig.clock.advance(10_000);
    await rig.runUntil(() => true, "a poll while refreshing");
    await rig.restart();
    expect(stateOf(rig)).toBe("confirming");
    rig.plex.finishRefresh("2");
    await rig.runUntil(() => stateOf(rig as AfterScanRig) === "done", "the scan to be confirmed after the restart");
    expect(rig.plex.refreshes).toHaveLength(1);
    expect(rig.plex.analyzed).toEqual([rig.plex.itemOf(EPISODE)?.ratingKey]);
  });
});
