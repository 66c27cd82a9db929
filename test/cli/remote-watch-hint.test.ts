import { describe, expect, it } from "vitest";
import { snapshotRemotes, watchHint } from "../../src/cli/remote-watch-hint.js";
import { parseConf } from "../../src/rclone/conf-document.js";

const DRIVE = "[gd]\ntype = drive\nscope = drive\n";
const CRYPT = "[gc]\ntype = crypt\nremote = gd:encrypt\npassword = x\n";

describe("what remote create says to set so serve watches the remote it made", () => {
  it("names the crypt remote over a drive remote, with the key and its form", () => {
    const before = snapshotRemotes(parseConf(""));
    const hint = watchHint(before, parseConf(`${DRIVE}\n${CRYPT}`), "/home/u/.config/rclone/rclone.conf", false);
    expect(hint).toBe(
      `To watch it for new files, set in scanarr's config.json: "CLOUD": {"ENABLED": true, "RCLONE_REMOTE": "gc:"} (docs/drive-monitoring.md), then run \`scanarr doctor\`.`,
    );
  });

  it("names a drive remote made alone, and RCLONE.CONFIG when rclone.conf was named with --rclone-config", () => {
    const hint = watchHint(snapshotRemotes(parseConf("")), parseConf(DRIVE), "/srv/rclone.conf", true);
    expect(hint).toContain(`"RCLONE_REMOTE": "gd:"}, "RCLONE": {"CONFIG": "/srv/rclone.conf"}`);
  });

  it("names a crypt remote added over a drive remote that was there before", () => {
    const hint = watchHint(snapshotRemotes(parseConf(DRIVE)), parseConf(`${DRIVE}\n${CRYPT}`), "/x/rclone.conf", false);
    expect(hint).toContain(`"RCLONE_REMOTE": "gc:"`);
  });

  it("says nothing when no drive or crypt remote changed", () => {
    const doc = `${DRIVE}\n[s3]\ntype = s3\n`;
    expect(watchHint(snapshotRemotes(parseConf(DRIVE)), parseConf(doc), "/x/rclone.conf", false)).toBeUndefined();
    expect(watchHint(snapshotRemotes(parseConf(DRIVE)), parseConf(DRIVE), "/x/rclone.conf", false)).toBeUndefined();
  });
});
