import { existsSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { startRig, type AfterScanRig } from "./harness.js";

const SEASON = "/data/TV/Show/Season 1";
const OLD = `${SEASON}/Show - S01E01 - 720p.mkv`;
const NEW = `${SEASON}/Show - S01E01 - 1080p.mkv`;

let rig: AfterScanRig | undefined;
afterEach(async () => {
  await rig?.stop();
  await rig?.plex.close();
  rig = undefined;
});

/** Sonarr's upgrade: the new file imported, the old one deleted, one scan of the season. */
function upgrade(r: AfterScanRig, extraTrash: string[] = []): void {
  for (const file of [OLD, ...extraTrash]) r.plex.addItem(file);
  for (const file of [OLD, ...extraTrash]) r.plex.removeFile(file);
  r.plex.addFile(NEW);
  r.enqueue(
    { folder: SEASON, source: "sonarr", event: "Download", files: [NEW] },
    { folder: SEASON, source: "sonarr", event: "Download", files: [OLD, ...extraTrash], deletion: true },
  );
}

const stateOf = (r: AfterScanRig) => r.scanOf(SEASON)?.state;

describe("empty trash after a confirmed upgrade", () => {
  it("empties the section's trash once refreshing has ended, not before", async () => {
    rig = await startRig({ PLEX_EMPTY_TRASH: true }, { refreshDuration: "manual" });
    upgrade(rig);
    await rig.runUntil(() => rig?.plex.refreshes.length === 1, "the scan call");
    rig.clock.advance(120_000);
    await rig.runUntil(() => true, "polls while refreshing", 10_000);
    expect(rig.plex.isRefreshing("2")).toBe(true);
    expect(rig.plex.emptiedTrash).toEqual([]);
    expect(stateOf(rig)).toBe("confirming");
    rig.plex.finishRefresh("2");
    await rig.runUntil(() => stateOf(rig as AfterScanRig) === "done", "the upgrade to be confirmed");
    expect(rig.plex.emptiedTrash).toEqual(["2"]);
    expect(rig.plex.trashCount("2")).toBe(0);
    expect(rig.scanOf(SEASON)?.deliveries[0]?.detail).toContain("trash: emptied (1 deleted items)");
  });

  it("leaves the trash alone when a control file is missing and says so in the queue and the log", async () => {
    const control = path.join(tempDir("scanarr-control-"), ".control");
    writeFileSync(control, "");
    // Present for the scan call (a missing one holds every delivery), gone once Plex got it.
    const onRequest = ({ url }: { url: string }) => {
      if (url.includes("/refresh?") && existsSync(control)) unlinkSync(control);
    };
    rig = await startRig({ PLEX_EMPTY_TRASH: true, PLEX_EMPTY_TRASH_CONTROL_FILES: [control] }, { onRequest });
    upgrade(rig);
    await rig.runUntil(() => stateOf(rig as AfterScanRig) === "done", "the upgrade to be confirmed");
    expect(rig.plex.emptiedTrash).toEqual([]);
    expect(rig.plex.trashCount("2")).toBe(1);
    expect(rig.scanOf(SEASON)?.deliveries[0]?.detail).toContain("trash: left alone: an anchor or control file is missing");
    expect(rig.lines.some((l) => l.msg === "the section's trash was not emptied" && String(l.reason).includes("control file"))).toBe(true);
  });

  it("leaves the trash alone when the control file vanishes while the trash is being counted", async () => {
    const control = path.join(tempDir("scanarr-control-"), ".control");
    writeFileSync(control, "");
    // The mount drops between the look before the count and the emptyTrash call.
    const onRequest = ({ url }: { url: string }) => {
      if (url.includes("trash=1") && existsSync(control)) unlinkSync(control);
    };
    rig = await startRig({ PLEX_EMPTY_TRASH: true, PLEX_EMPTY_TRASH_CONTROL_FILES: [control] }, { onRequest });
    upgrade(rig);
    await rig.runUntil(() => stateOf(rig as AfterScanRig) === "done", "the upgrade to be confirmed");
    expect(existsSync(control)).toBe(false);
    expect(rig.plex.emptiedTrash).toEqual([]);
    expect(rig.plex.trashCount("2")).toBe(1);
    expect(rig.scanOf(SEASON)?.deliveries[0]?.detail).toContain("trash: left alone: an anchor or control file is missing");
  });

  it("leaves the trash alone when more items were deleted than PLEX_EMPTY_TRASH_MAX_FILES allows", async () => {
    rig = await startRig({ PLEX_EMPTY_TRASH: true, PLEX_EMPTY_TRASH_MAX_FILES: 1 });
    upgrade(rig, [`${SEASON}/Show - S01E02.mkv`]);
    await rig.runUntil(() => stateOf(rig as AfterScanRig) === "done", "the upgrade to be confirmed");
    expect(rig.plex.emptiedTrash).toEqual([]);
    expect(rig.scanOf(SEASON)?.deliveries[0]?.detail).toContain("2 deleted items in the section, more than PLEX_EMPTY_TRASH_MAX_FILES (1)");
  });
});
