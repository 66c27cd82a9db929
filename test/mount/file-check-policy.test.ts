import { describe, expect, it } from "vitest";
import { decideAfterRound, type FileCheckSettings } from "../../src/mount/file-check-policy.js";
import type { FileVisibility } from "../../src/mount/file-check.js";

const settings: FileCheckSettings = {
  SERVER_MAX_FILE_CHECKS: 3,
  SERVER_FILE_CHECK_DELAY: 60,
  SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION: false,
};

function seen(file: string, visible: boolean, extra: Partial<FileVisibility> = {}): FileVisibility {
  return { file, localPath: file, visible, state: visible ? "file" : "missing", refreshed: false, ...extra };
}

describe("decideAfterRound", () => {
  it("delivers as soon as every file is visible, whatever the round", () => {
    expect(decideAfterRound([seen("/data/a.mkv", true)], 3, 0, settings)).toEqual({ kind: "deliver" });
  });

  it("checks again SERVER_FILE_CHECK_DELAY seconds later until the last round", () => {
    expect(decideAfterRound([seen("/data/a.mkv", false)], 1, 1_000, settings)).toEqual({ kind: "check-again", at: 61_000 });
    expect(decideAfterRound([seen("/data/a.mkv", false)], 2, 1_000, settings)).toEqual({ kind: "check-again", at: 61_000 });
  });

  it("fails with the reason after the last round, or scans the folder when SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION is on", () => {
    const files = [
      seen("/data/TV/e01.mkv", false, { localPath: "/mnt/unionfs/TV/e01.mkv" }),
      seen("/data/TV/e02.mkv", true),
      seen("/data/TV/e03.mkv", false, { state: "timeout", error: "no answer within 5 s" }),
    ];
    expect(decideAfterRound(files, 3, 0, settings)).toEqual({
      kind: "exhausted",
      action: "fail",
      reason: "file not visible after 3 checks: /data/TV/e01.mkv (looked for at /mnt/unionfs/TV/e01.mkv) and 1 more",
    });
    const scanAnyway = decideAfterRound(files, 3, 0, { ...settings, SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION: true });
    expect(scanAnyway).toMatchObject({ kind: "exhausted", action: "scan-folder" });
  });

  it("gives up after the single round when SERVER_MAX_FILE_CHECKS is 1, naming the probe's error", () => {
    const files = [seen("/data/a.mkv", false, { state: "timeout", error: "no answer within 5 s" })];
    expect(decideAfterRound(files, 1, 0, { ...settings, SERVER_MAX_FILE_CHECKS: 1 })).toEqual({
      kind: "exhausted",
      action: "fail",
      reason: "file not visible after 1 check: /data/a.mkv: no answer within 5 s",
    });
  });

  it("delivers at once when file checks are off (0)", () => {
    expect(decideAfterRound([seen("/data/a.mkv", false)], 1, 0, { ...settings, SERVER_MAX_FILE_CHECKS: 0 })).toEqual({ kind: "deliver" });
  });
});
