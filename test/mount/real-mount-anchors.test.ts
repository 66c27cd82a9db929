import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../src/lib/clock.js";
import { createAnchorMonitor } from "../../src/mount/anchors.js";
import { createPathProbe, type PathProbe, type ProbeResult } from "../../src/mount/path-probe.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { canMount, cleanupRclone, makeTempDir, type RcloneMount, startRcloneMount } from "../helpers/rclone-mount.js";

const probes: PathProbe[] = [];
let mount: RcloneMount | undefined;
afterEach(async () => {
  mount?.resume();
  await Promise.all(probes.splice(0).map((p) => p.close()));
  await cleanupRclone();
  mount = undefined;
});

async function mountWithAnchor(): Promise<{ mount: RcloneMount; anchor: string }> {
  const started = await startRcloneMount();
  writeFileSync(path.join(started.src, "mounted.bin"), "");
  mount = started;
  return { mount: started, anchor: path.join(started.mnt, "mounted.bin") };
}

function probeOf(timeoutMs: number): PathProbe {
  const probe = createPathProbe({ timeoutMs });
  probes.push(probe);
  return probe;
}

describe.skipIf(!canMount)("anchors on a real rclone mount", () => {
  it("go missing when rclone stops (the mount point is an empty folder) and come back on remount, logged once each way", async () => {
    const { mount, anchor } = await mountWithAnchor();
    const { logger, at } = recordingLogger();
    const anchors = createAnchorMonitor({ anchors: [anchor, `${mount.mnt}/`], probe: probeOf(2_000), logger, clock: systemClock });
    expect((await anchors.check()).ok).toBe(true);
    await mount.stop();
    const dropped = await anchors.check();
    expect(dropped.ok).toBe(false);
    expect(dropped.missing).toEqual([
      { path: anchor, reason: "does not exist" },
      { path: `${mount.mnt}/`, reason: "is an empty folder (a dropped mount looks like this)" },
    ]);
    await anchors.check();
    expect(anchors.current()?.ok).toBe(false);
    await mount.remount();
    expect((await anchors.check()).ok).toBe(true);
    expect(at("warn")).toEqual(["anchor missing: scans are held until it is back", "anchor missing: scans are held until it is back"]);
    expect(at("info")).toEqual(["anchor is back", "anchor is back", "every anchor is there again: scans go out"]);
  });

  it("answer timeout within the bound when rclone is stopped with SIGSTOP, sharing the outstanding check, and answer again after SIGCONT", async () => {
    const { mount, anchor } = await mountWithAnchor();
    const probe = probeOf(1_000);
    // Not looked at before the stall: the kernel would answer a fresh lookup from its attribute cache.
    mount.pause();
    const started = performance.now();
    const first = probe.check(anchor);
    expect(probe.check(anchor)).toBe(first);
    const result = await first;
    const elapsed = performance.now() - started;
    expect(result).toEqual({ state: "timeout", error: "no answer within 1 s" });
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(3_000);
    const anchors = createAnchorMonitor({ anchors: [anchor], probe, logger: recordingLogger().logger, clock: systemClock });
    expect((await anchors.check()).missing[0]?.reason).toMatch(/^did not answer in time: the mount looks stalled/);
    mount.resume();
    // The mount is marked stalled for one bound after the timeout; then it is asked again and answers.
    let last: ProbeResult | undefined;
    const until = Date.now() + 5_000;
    while (last?.state !== "file" && Date.now() < until) last = await probe.check(anchor);
    expect(last).toEqual({ state: "file" });
  });

  it("keeps the event loop and the thread pool free while ten checks hang on a stalled mount", async () => {
    const { mount } = await mountWithAnchor();
    for (let i = 0; i < 10; i++) writeFileSync(path.join(mount.src, `file-${i}.mkv`), "x");
    const probe = probeOf(20_000);
    mount.pause();
    let settled = 0;
    const hung = Array.from({ length: 10 }, (_, i) => probe.check(path.join(mount.mnt, `file-${i}.mkv`)).finally(() => (settled += 1)));
    const local = makeTempDir();
    writeFileSync(path.join(local, "config.json"), '{"ok":true}');
    const server = createServer((_req, res) => res.end("alive"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      // Sixteen reads: more than libuv's four threads, so a pool held by the hung stats would block them.
      const started = performance.now();
      const reads = await Promise.all(Array.from({ length: 16 }, () => readFile(path.join(local, "config.json"), "utf8")));
      const answer = await (await fetch(`http://127.0.0.1:${port}/health`)).text();
      const elapsed = performance.now() - started;
      expect(reads.every((r) => r === '{"ok":true}')).toBe(true);
      expect(answer).toBe("alive");
      expect(elapsed).toBeLessThan(1_000);
      expect(settled).toBe(0);
    } finally {
      server.close();
    }
    mount.resume();
    // Once rclone runs again the hung stats complete with the real answer.
    const results = await Promise.all(hung);
    expect(results.map((r) => r.state)).toEqual(Array(10).fill("file"));
    expect(settled).toBe(10);
  });
});
