import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { anchorsOf, createAnchorMonitor } from "../../src/mount/anchors.js";
import { createPathProbe, type PathProbe } from "../../src/mount/path-probe.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { cleanupRclone, makeTempDir } from "../helpers/rclone-mount.js";

const probes: PathProbe[] = [];
afterEach(async () => {
  await Promise.all(probes.splice(0).map((p) => p.close()));
  await cleanupRclone();
});

/** The real probe, counting what it is asked. */
function countingProbe(): { probe: Pick<PathProbe, "check">; asked: string[] } {
  const real = createPathProbe({ timeoutMs: 5_000 });
  probes.push(real);
  const asked: string[] = [];
  const check = (p: string) => {
    asked.push(p);
    return real.check(p);
  };
  return { probe: { check }, asked };
}

function tree() {
  const dir = makeTempDir();
  writeFileSync(path.join(dir, "mounted.bin"), "");
  mkdirSync(path.join(dir, "media", "TV"), { recursive: true });
  mkdirSync(path.join(dir, "empty"));
  return dir;
}

describe("anchorsOf", () => {
  it("adds every PLEX_EMPTY_TRASH_CONTROL_FILES entry to ANCHORS, each once", () => {
    expect(anchorsOf({ ANCHORS: ["/mnt/a.bin", "/mnt/b/"], PLEX_EMPTY_TRASH_CONTROL_FILES: ["/mnt/a.bin", "/mnt/c.bin"] })).toEqual([
      "/mnt/a.bin",
      "/mnt/b/",
      "/mnt/c.bin",
    ]);
  });
});

describe("anchor monitor", () => {
  it("is ok with no anchors and asks nothing", async () => {
    const { probe, asked } = countingProbe();
    const clock = new ManualClock();
    const monitor = createAnchorMonitor({ anchors: [], probe, logger: recordingLogger().logger, clock });
    expect(monitor.current()).toBeUndefined();
    expect(await monitor.check()).toEqual({ ok: true, missing: [], checkedAt: clock.now() });
    expect(asked).toEqual([]);
  });

  it("accepts a file or a non-empty folder and names why each other anchor is missing", async () => {
    const dir = tree();
    const anchors = ["mounted.bin", "media", "media/", "empty", "gone.bin", "mounted.bin/"].map((a) => `${dir}/${a}`);
    const { probe } = countingProbe();
    const monitor = createAnchorMonitor({ anchors, probe, logger: recordingLogger().logger, clock: new ManualClock() });
    const status = await monitor.check();
    expect(status.ok).toBe(false);
    expect(status.missing).toEqual([
      { path: path.join(dir, "empty"), reason: "is an empty folder (a dropped mount looks like this)" },
      { path: path.join(dir, "gone.bin"), reason: "does not exist" },
      { path: `${path.join(dir, "mounted.bin")}/`, reason: "is a file, but the anchor names a folder" },
    ]);
    expect(monitor.current()).toBe(status);
  });

  it("logs a change once (missing, then back), not on every check", async () => {
    const dir = tree();
    const anchor = path.join(dir, "mounted.bin");
    const { logger, lines, at } = recordingLogger();
    const monitor = createAnchorMonitor({
      anchors: [anchor, path.join(dir, "media")],
      probe: countingProbe().probe,
      logger,
      clock: new ManualClock(),
    });
    await monitor.check();
    await monitor.check();
    expect(lines).toEqual([]);
    rmSync(anchor);
    for (let i = 0; i < 3; i++) expect((await monitor.check()).ok).toBe(false);
    expect(at("warn")).toEqual(["anchor missing: scans are held until it is back"]);
    expect(lines[0]?.fields).toEqual({ anchor, reason: "does not exist" });
    writeFileSync(anchor, "");
    for (let i = 0; i < 3; i++) expect((await monitor.check()).ok).toBe(true);
    expect(at("info")).toEqual(["anchor is back", "every anchor is there again: scans go out"]);
    expect(lines).toHaveLength(3);
  });

  it("warns at the first check when an anchor is already missing at start", async () => {
    const dir = tree();
    const { logger, at } = recordingLogger();
    const monitor = createAnchorMonitor({
      anchors: [path.join(dir, "gone.bin")],
      probe: countingProbe().probe,
      logger,
      clock: new ManualClock(),
    });
    await monitor.check();
    expect(at("warn")).toHaveLength(1);
    expect(at("info")).toEqual([]);
  });

  it("shares one check between the callers of one turn, stamps it with the clock, and answers a later caller from a check begun after it asked", async () => {
    const dir = tree();
    const { probe, asked } = countingProbe();
    const clock = new ManualClock(5_000);
    const monitor = createAnchorMonitor({
      anchors: [path.join(dir, "mounted.bin"), path.join(dir, "media")],
      probe,
      logger: recordingLogger().logger,
      clock,
    });
    const [a, b] = await Promise.all([monitor.check(), monitor.check()]);
    expect(a).toBe(b);
    expect(asked).toHaveLength(2);
    expect(a.checkedAt).toBe(5_000);
    const first = monitor.check();
    await expect.poll(() => asked.length).toBe(4);
    const [c, d] = await Promise.all([first, monitor.check()]);
    expect(d).not.toBe(c);
    expect(asked).toHaveLength(6);
  });
});
