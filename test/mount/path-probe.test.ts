import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { createPathProbe, type PathProbe, type PathProbeOptions } from "../../src/mount/path-probe.js";
import { type ProbeWorker, startProbeWorker, type WorkerEvents, type WorkerReply } from "../../src/mount/probe-worker.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { cleanupRclone, makeTempDir, waitFor } from "../helpers/rclone-mount.js";

const probes: PathProbe[] = [];
afterEach(async () => {
  await Promise.all(probes.splice(0).map((p) => p.close()));
  await cleanupRclone();
});

function track(probe: PathProbe): PathProbe {
  probes.push(probe);
  return probe;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("path probe with its real child process", () => {
  it("tells a file, a folder, an empty folder and a missing path apart", async () => {
    const dir = makeTempDir();
    mkdirSync(path.join(dir, "full"));
    writeFileSync(path.join(dir, "full", "e01.mkv"), "x");
    mkdirSync(path.join(dir, "empty"));
    const probe = track(createPathProbe({ timeoutMs: 5_000 }));
    const states = await Promise.all(
      ["full/e01.mkv", "full", "empty", "nope", "full/e01.mkv/below"].map(async (p) => (await probe.check(path.join(dir, p))).state),
    );
    expect(states).toEqual(["file", "folder", "empty-folder", "missing", "missing"]);
  });

  it("answers missing with the reason for a relative path, without asking the child", async () => {
    const started: number[] = [];
    const probe = track(
      createPathProbe({
        startWorker: () => {
          started.push(1);
          return fakeWorker().worker;
        },
      }),
    );
    expect(await probe.check("data/TV/e01.mkv")).toEqual({ state: "missing", error: '"data/TV/e01.mkv" is not an absolute path' });
    expect(started).toEqual([]);
  });

  it("shares one outstanding check per path and asks afresh once it answered", async () => {
    const dir = makeTempDir();
    const file = path.join(dir, "late.mkv");
    const probe = track(createPathProbe());
    const first = probe.check(file);
    expect(probe.check(`${file}`)).toBe(first);
    expect(probe.check(path.join(dir, ".", "late.mkv"))).toBe(first);
    expect((await first).state).toBe("missing");
    writeFileSync(file, "x");
    expect((await probe.check(file)).state).toBe("file");
  });

  it("kills its child on close and answers later checks as closed", async () => {
    const pids: number[] = [];
    const probe = createPathProbe({
      startWorker: (threads, events) => {
        const real = startProbeWorker(threads, events);
        if (real.pid) pids.push(real.pid);
        return real;
      },
    });
    await probe.check("/");
    await probe.close();
    expect(pids).toHaveLength(1);
    await waitFor("the probe child to end", () => !isAlive(pids[0] as number));
    expect(await probe.check("/")).toEqual({ state: "timeout", error: "the path probe is closed" });
  });
});

describe("path probe bounds (scripted child, injected clock)", () => {
  it("answers timeout after its bound, kills the child and re-sends the other checks it held to a new one", async () => {
    const clock = new ManualClock();
    const { probe, workers } = scripted({ timeoutMs: 1_000, clock, mountPointOf: (p) => (p.startsWith("/mnt/a/") ? "/mnt/a" : "/") });
    const hung = probe.check("/mnt/a/anchor.bin");
    clock.advance(400);
    const other = probe.check("/data/ok.mkv");
    expect(workers[0]?.sent.map((c) => c.path)).toEqual(["/mnt/a/anchor.bin", "/data/ok.mkv"]);
    clock.advance(600);
    expect(await hung).toEqual({ state: "timeout", error: "no answer within 1 s" });
    expect(workers[0]?.killed).toBe(true);
    expect(workers[1]?.sent.map((c) => c.path)).toEqual(["/data/ok.mkv"]);
    workers[1]?.answer("/data/ok.mkv", "file");
    expect(await other).toEqual({ state: "file" });
  });

  it("keeps the first deadline for a re-sent check: it never waits longer than one bound", async () => {
    const clock = new ManualClock();
    const { probe, workers } = scripted({ timeoutMs: 1_000, clock });
    const a = probe.check("/mnt/a/x");
    clock.advance(500);
    const b = probe.check("/mnt/b/y");
    clock.advance(500); // a times out; b is re-sent with 500 ms left
    expect((await a).state).toBe("timeout");
    clock.advance(499);
    expect(workers[1]?.sent.map((c) => c.path)).toEqual(["/mnt/b/y"]);
    clock.advance(1);
    expect(await b).toEqual({ state: "timeout", error: "no answer within 1 s" });
  });

  it("answers every waiting check on a mount that just hung at once, then tries that mount again after one bound", async () => {
    const clock = new ManualClock();
    const { logger, at } = recordingLogger();
    const { probe, workers } = scripted({
      timeoutMs: 1_000,
      concurrency: 2,
      clock,
      logger,
      mountPointOf: (p) => (p.startsWith("/mnt/a/") ? "/mnt/a" : "/"),
    });
    const checks = Array.from({ length: 50 }, (_, i) => probe.check(`/mnt/a/file-${i}.mkv`));
    const elsewhere = probe.check("/data/other.mkv");
    expect(workers[0]?.sent).toHaveLength(2);
    clock.advance(1_000);
    const results = await Promise.all(checks);
    expect(results.every((r) => r.state === "timeout")).toBe(true);
    expect(results[10]).toEqual({ state: "timeout", error: "the mount /mnt/a did not answer a check within 1 s" });
    // Only the first two were ever sent; the other mount's check went to the next child.
    expect(workers.flatMap((w) => w.sent.map((c) => c.path)).filter((p) => p.startsWith("/mnt/a/"))).toHaveLength(2);
    workers.at(-1)?.answer("/data/other.mkv", "file");
    expect((await elsewhere).state).toBe("file");
    expect(at("warn")).toHaveLength(1);
    const soon = probe.check("/mnt/a/file-0.mkv");
    expect((await soon).state).toBe("timeout");
    clock.advance(1_000);
    const later = probe.check("/mnt/a/file-0.mkv");
    workers.at(-1)?.answer("/mnt/a/file-0.mkv", "file");
    expect(await later).toEqual({ state: "file" });
  });

  it("sends at most `concurrency` checks to the child and the rest in order as answers come", async () => {
    const { probe, workers } = scripted({ concurrency: 2 });
    const all = ["/a", "/b", "/c", "/d"].map((p) => probe.check(p));
    const worker = workers[0] as FakeWorker;
    expect(worker.sent.map((c) => c.path)).toEqual(["/a", "/b"]);
    worker.answer("/a", "file");
    await all[0];
    expect(worker.sent.map((c) => c.path)).toEqual(["/a", "/b", "/c"]);
    worker.answer("/b", "missing");
    worker.answer("/c", "folder");
    await Promise.all([all[1], all[2]]);
    worker.answer("/d", "empty-folder");
    expect((await Promise.all(all)).map((r) => r.state)).toEqual(["file", "missing", "folder", "empty-folder"]);
  });

  it("sends a check asked `first` ahead of those already waiting", async () => {
    const { probe, workers } = scripted({ concurrency: 1 });
    const files = ["/data/a", "/data/b", "/data/c"].map((p) => probe.check(p));
    const anchor = probe.check("/mnt/anchor.bin", { first: true });
    const worker = workers[0] as FakeWorker;
    worker.answer("/data/a", "file");
    await files[0];
    expect(worker.sent.map((c) => c.path)).toEqual(["/data/a", "/mnt/anchor.bin"]);
    worker.answer("/mnt/anchor.bin", "file");
    expect(await anchor).toEqual({ state: "file" });
  });

  it("answers the checks of a child that died on its own as timeout with why, and starts a new child for the next", async () => {
    const { logger, at } = recordingLogger();
    const { probe, workers } = scripted({ logger });
    const pending = probe.check("/data/a.mkv");
    workers[0]?.die("the probe process ended (SIGSEGV)");
    expect(await pending).toEqual({ state: "timeout", error: "the probe process ended (SIGSEGV)" });
    expect(at("warn")).toEqual(["the path probe process ended unexpectedly; it restarts on the next check"]);
    const next = probe.check("/data/a.mkv");
    workers[1]?.answer("/data/a.mkv", "file");
    expect(await next).toEqual({ state: "file" });
  });
});

/** A probe over scripted children (one per start), with the given options. */
function scripted(options: Omit<PathProbeOptions, "startWorker"> = {}): { probe: PathProbe; workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  const probe = track(
    createPathProbe({ mountPointOf: () => undefined, ...options, startWorker: (_t, e) => last(workers, fakeWorker(e)).worker }),
  );
  return { probe, workers };
}

interface FakeWorker {
  worker: ProbeWorker;
  sent: Array<{ id: number; path: string }>;
  killed: boolean;
  answer(path: string, state: WorkerReply["state"]): void;
  die(why: string): void;
}

/** A child that answers only when the test says so. */
function fakeWorker(events?: WorkerEvents): FakeWorker {
  const fake: FakeWorker = {
    sent: [],
    killed: false,
    worker: {
      pid: undefined,
      send: (checks) => fake.sent.push(...checks),
      setWaiting: () => {},
      kill: () => {
        fake.killed = true;
        events?.onExit(fake.worker, true, "killed");
      },
    },
    answer(p, state) {
      const check = fake.sent.find((c) => c.path === p);
      if (!check) throw new Error(`${p} was never sent to this child`);
      events?.onReplies(fake.worker, [{ id: check.id, state }]);
    },
    die: (why) => events?.onExit(fake.worker, false, why),
  };
  return fake;
}

function last<T>(list: T[], item: T): T {
  list.push(item);
  return item;
}
