import { afterEach, describe, expect, it } from "vitest";
import { startRig, type AfterScanRig } from "./harness.js";

const SEASON = "/data/TV/Show/Season 1";

let rig: AfterScanRig | undefined;
afterEach(async () => {
  await rig?.stop();
  await rig?.plex.close();
  rig = undefined;
});

describe("confirmations left when the after-scan work is turned off", () => {
  it("end as delivered at the next start instead of waiting for ever, and Plex is not asked again", async () => {
    rig = await startRig({}, { refreshDuration: "manual" });
    rig.enqueue({ folder: SEASON, source: "sonarr", event: "Download", files: [`${SEASON}/e.mkv`] });
    await rig.runUntil(() => rig?.scanOf(SEASON)?.state === "confirming", "the scan call");
    rig.config.PLEX_CONFIRM_SCANS = false;
    await rig.restart();
    const scan = rig.scanOf(SEASON);
    expect(scan?.state).toBe("done");
    expect(scan?.deliveries[0]?.detail).toBe("delivered; not confirmed: the after-scan work of this target is off");
    expect(scan?.deliveries[0]?.confirmedAfterMs).toBeNull();
    expect(rig.plex.refreshes).toHaveLength(1);
  });
});
