import { existsSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakePlexRequest } from "../fakes/plex.js";
import { tempDir } from "../helpers/cli.js";
import { startRig, type AfterScanRig } from "./harness.js";

const SEASON = "/data/TV/Show/Season 1";
const EPISODE = `${SEASON}/Show - S01E01.mkv`;

let rig: AfterScanRig | undefined;
afterEach(async () => {
  await rig?.stop();
  await rig?.plex.close();
  rig = undefined;
});

/** An anchor file (ANCHORS) that a test takes away and puts back, as a mount drops and returns. */
function anchorFile() {
  const file = path.join(tempDir("scanarr-anchor-"), ".scanarr-anchor");
  writeFileSync(file, "");
  return {
    file,
    drop: () => existsSync(file) && unlinkSync(file),
    restore: () => {
      writeFileSync(`${file}.new`, "");
      renameSync(`${file}.new`, file);
    },
  };
}

/** Drops the anchor as soon as Plex receives the first scan call: the mount goes away right after the delivery. */
function dropAfterFirstScan(anchor: ReturnType<typeof anchorFile>) {
  let scans = 0;
  return ({ url }: FakePlexRequest) => {
    if (url.includes("/refresh?") && ++scans === 1) anchor.drop();
  };
}

const scanCalls = (r: AfterScanRig) => r.plex.refreshes.length;
const deliveryOf = (r: AfterScanRig) => r.scanOf(SEASON)?.deliveries[0];

describe("after-scan calls pass the anchor gate", () => {
  it("holds the confirmation's re-scan while an anchor is missing, says so, and sends it once the anchor is back", async () => {
    const anchor = anchorFile();
    rig = await startRig({ ANCHORS: [anchor.file] }, { onRequest: dropAfterFirstScan(anchor) });
    // A file Plex never lists: the confirmation decides to scan the folder again after PLEX_CONFIRM_RESCAN_DELAY.
    rig.enqueue({ folder: SEASON, source: "sonarr", event: "Download", files: [EPISODE] });
    await rig.runUntil(() => scanCalls(rig as AfterScanRig) === 1, "the delivery");
    expect(existsSync(anchor.file)).toBe(false);
    const start = rig.clock.now();
    await rig.runUntil(() => (rig as AfterScanRig).clock.now() - start >= 180_000, "three minutes without the anchor", 5_000);
    expect(scanCalls(rig)).toBe(1);
    const scan = rig.scanOf(SEASON);
    expect(scan?.state).toBe("confirming");
    expect(scan?.reason?.text).toContain("held: re-scan waits for the anchors");
    expect(rig.lines.some((l) => l.msg === "re-scan held: an anchor is missing")).toBe(true);

    anchor.restore();
    await rig.runUntil(() => scanCalls(rig as AfterScanRig) === 2, "the re-scan once the anchor is back", 5_000);
    expect(rig.plex.refreshes).toEqual([
      { sectionId: "2", path: SEASON },
      { sectionId: "2", path: SEASON },
    ]);
    expect(deliveryOf(rig)?.detail).not.toContain("held");
  });

  it("sends no analyze while an anchor is missing, and analyzes once it is back", async () => {
    const anchor = anchorFile();
    rig = await startRig(
      { ANCHORS: [anchor.file], PLEX_ANALYZE_TYPE: "basic" },
      { refreshDuration: "manual", onRequest: dropAfterFirstScan(anchor) },
    );
    rig.plex.addFile(EPISODE);
    rig.enqueue({ folder: SEASON, source: "sonarr", event: "Download", files: [EPISODE] });
    await rig.runUntil(() => scanCalls(rig as AfterScanRig) === 1, "the delivery");
    rig.plex.finishRefresh("2");
    const start = rig.clock.now();
    await rig.runUntil(() => (rig as AfterScanRig).clock.now() - start >= 60_000, "a minute without the anchor", 5_000);
    expect(rig.plex.analyzed).toEqual([]);
    expect(rig.scanOf(SEASON)?.state).toBe("confirming");
    expect(deliveryOf(rig)?.detail).toContain("analyze and item refresh wait for the anchors");

    anchor.restore();
    await rig.runUntil(() => rig?.scanOf(SEASON)?.state === "done", "the scan to be confirmed", 5_000);
    expect(rig.plex.analyzed).toEqual([rig.plex.itemOf(EPISODE)?.ratingKey]);
    expect(deliveryOf(rig)?.detail).toMatch(/^confirmed \d+ s after the first request; analyzed 1 item/);
    expect(scanCalls(rig)).toBe(1);
  });

  it("sends no item refresh while an anchor is missing, and refreshes the item once it is back", async () => {
    const anchor = anchorFile();
    rig = await startRig({ ANCHORS: [anchor.file] }, { refreshDuration: "manual", onRequest: dropAfterFirstScan(anchor) });
    // A video remuxed in place: Plex holds its item; the confirmation refreshes it.
    rig.plex.addItem(EPISODE);
    rig.enqueue({ folder: SEASON, source: "tdarr", event: "Manual", files: [EPISODE], refresh: true });
    await rig.runUntil(() => scanCalls(rig as AfterScanRig) === 1, "the delivery");
    rig.plex.finishRefresh("2");
    const start = rig.clock.now();
    await rig.runUntil(() => (rig as AfterScanRig).clock.now() - start >= 60_000, "a minute without the anchor", 5_000);
    expect(rig.plex.itemRefreshes).toEqual([]);
    expect(rig.plex.analyzed).toEqual([]);
    expect(deliveryOf(rig)?.detail).toContain("analyze and item refresh wait for the anchors");

    anchor.restore();
    await rig.runUntil(() => rig?.scanOf(SEASON)?.state === "done", "the scan to be confirmed", 5_000);
    expect(rig.plex.itemRefreshes).toEqual([rig.plex.itemOf(EPISODE)?.ratingKey]);
    expect(deliveryOf(rig)?.detail).toContain("refreshed 1 item(s)");
  });
});
