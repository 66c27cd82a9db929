import { describe, expect, it } from "vitest";
import { decideConfirmStep, type ConfirmSettings, type FileCheck } from "../../src/delivery/after-scan/confirm-step.js";

const settings: ConfirmSettings = { pollMs: 10_000, maxWaitMs: 600_000, rescanDelayMs: 120_000, confirmFiles: true, server: "Plex" };
const T0 = 1_700_000_000_000;
const first = { scannedAt: T0, rescanned: false };
const idle = { refreshing: false };
const busy = { refreshing: true };
const landed: FileCheck = { items: [{ file: "/tv/S/E1.mkv", ratingKey: "7", parentRatingKey: "6" }], notConfirmed: [] };
const missing: FileCheck = { items: [], notConfirmed: ["/tv/S/E1.mkv"] };

describe("decideConfirmStep", () => {
  it("waits while the section is refreshing, remembering it was seen busy", () => {
    expect(decideConfirmStep(first, busy, undefined, T0 + 30_000, settings)).toEqual({
      kind: "wait",
      why: "refreshing",
      refreshing: true,
      notConfirmed: [],
    });
  });

  it("waits out the first poll interval when the section was never seen refreshing (Plex may not have started)", () => {
    expect(decideConfirmStep(first, idle, landed, T0 + 5_000, settings)).toMatchObject({ kind: "wait", why: "settling" });
  });

  it("confirms at once when the section was seen refreshing and is done, before the poll interval passed", () => {
    expect(decideConfirmStep({ ...first, sawRefreshing: true }, idle, landed, T0 + 5_000, settings)).toEqual({
      kind: "confirmed",
      items: landed.items,
    });
  });

  it("confirms a scan without files once its section finished", () => {
    expect(decideConfirmStep(first, idle, { items: [], notConfirmed: [] }, T0 + 10_000, settings)).toEqual({
      kind: "confirmed",
      items: [],
    });
  });

  it("waits for missing files until the re-scan delay, then asks for one re-scan, then gives up as unconfirmed", () => {
    expect(decideConfirmStep(first, idle, missing, T0 + 60_000, settings)).toMatchObject({ kind: "wait", why: "files-missing" });
    expect(decideConfirmStep(first, idle, missing, T0 + 120_000, settings)).toEqual({ kind: "rescan", notConfirmed: missing.notConfirmed });
    const second = { scannedAt: T0 + 120_000, rescanned: true };
    expect(decideConfirmStep(second, idle, missing, T0 + 200_000, settings)).toMatchObject({ kind: "wait" });
    const gaveUp = decideConfirmStep(second, idle, missing, T0 + 240_000, settings);
    expect(gaveUp).toMatchObject({ kind: "unconfirmed", notConfirmed: ["/tv/S/E1.mkv"] });
    expect(gaveUp.kind === "unconfirmed" && gaveUp.reason).toBe("1 file not as expected in Plex 120 s after the second scan");
  });

  it("checks the files anyway once the section has been refreshing longer than the maximum wait", () => {
    expect(decideConfirmStep(first, busy, landed, T0 + 600_000, settings)).toEqual({ kind: "confirmed", items: landed.items });
  });

  it("reports a section Plex no longer has as unconfirmed", () => {
    expect(decideConfirmStep(first, undefined, undefined, T0 + 10_000, settings)).toMatchObject({
      kind: "unconfirmed",
      reason: "the section no longer exists in Plex",
    });
  });

  it("with confirmation off, finishes with the items Plex has once the section is done, never re-scanning", () => {
    const off = { ...settings, confirmFiles: false };
    expect(decideConfirmStep(first, idle, missing, T0 + 500_000, off)).toEqual({ kind: "finished", items: [] });
    expect(decideConfirmStep(first, idle, landed, T0 + 10_000, off)).toEqual({ kind: "finished", items: landed.items });
  });
});
