import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/lib/clock.js";
import { createStorageWatch } from "../../../src/queue/storage/storage-watch.js";
import { recordingLogger } from "../../helpers/log-lines.js";

const FULL = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
const DATABASE = "/srv/scanarr/data/scanarr.db";

function watch() {
  const clock = new ManualClock();
  const log = recordingLogger();
  let probeError: Error | undefined = FULL;
  let checkpointsAsked = 0;
  let recovered = 0;
  const storage = createStorageWatch({
    database: DATABASE,
    clock,
    logger: log.logger,
    probe: () => {
      if (probeError) throw probeError;
    },
    checkpointNow: () => {
      checkpointsAsked += 1;
    },
  });
  storage.onWritable(() => {
    recovered += 1;
  });
  return {
    storage,
    clock,
    log,
    spaceReturns: () => {
      probeError = undefined;
    },
    checkpointsAsked: () => checkpointsAsked,
    recovered: () => recovered,
  };
}

describe("the storage watch", () => {
  it("ignores errors that are not about storage", () => {
    const { storage } = watch();
    expect(storage.report(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }))).toBe(false);
    expect(storage.report(new Error("a bug"))).toBe(false);
    expect(storage.problem()).toBeUndefined();
  });

  it("says where the disk is full, logs it once, and clears within a probe once a write works again", () => {
    const w = watch();
    expect(w.storage.report(FULL)).toBe(true);
    expect(w.storage.report(FULL)).toBe(true);
    expect(w.storage.problem()).toBe("the disk holding /srv/scanarr/data is full (SQLITE_FULL): the database scanarr.db cannot write");
    expect(w.log.at("error")).toHaveLength(1);
    w.clock.advance(5_000);
    expect(w.storage.problem()).toBeDefined();
    w.spaceReturns();
    w.clock.advance(1_000);
    expect(w.storage.problem()).toBeUndefined();
    expect(w.recovered()).toBe(1);
    expect(w.log.at("info")).toEqual(["the database writes again: webhooks are accepted and deliveries resume"]);
    expect(w.clock.pending).toBe(0);
  });

  it("holds a failed checkpoint as a problem until a checkpoint succeeds, and asks for one as soon as a write works", () => {
    const w = watch();
    w.storage.checkpointed({ ok: false, code: "SQLITE_FULL", message: "database or disk is full", walBytes: 1 << 20 });
    expect(w.storage.problem()).toMatch(/^the WAL checkpoint failed: the disk holding \/srv\/scanarr\/data is full/);
    w.spaceReturns();
    w.clock.advance(1_000);
    expect(w.checkpointsAsked()).toBe(1);
    expect(w.storage.problem()).toBeDefined();
    w.storage.checkpointed({ ok: true, walBytes: 0 });
    expect(w.storage.problem()).toBeUndefined();
    expect(w.recovered()).toBe(1);
  });

  it("only warns, once per message, about a checkpoint that failed for another reason", () => {
    const w = watch();
    for (let i = 0; i < 3; i++) w.storage.checkpointed({ ok: false, code: "SQLITE_BUSY", message: "database is locked", walBytes: 0 });
    expect(w.storage.problem()).toBeUndefined();
    expect(w.log.at("warn")).toEqual(["WAL checkpoint failed; it is tried again"]);
  });
});

describe("the storage watch's reserve", () => {
  it("releases the reserve when the disk fills, and clears only once there is room for it again", () => {
    const clock = new ManualClock();
    const log = recordingLogger();
    let free = 0;
    let reserved = true;
    let probes = 0;
    const storage = createStorageWatch({
      database: DATABASE,
      clock,
      logger: log.logger,
      probe: () => {
        probes += 1;
      },
      reserve: {
        ensure: () => (reserved = free >= 1 << 20),
        release: () => {
          const released = reserved ? 1 << 20 : 0;
          reserved = false;
          return released;
        },
      },
      freeBytes: () => free,
      minFreeBytes: 2 << 20,
    });
    storage.report(FULL);
    expect(reserved).toBe(false);
    expect(log.at("error")[0]).toMatch(/released the 1024 KiB kept aside/);
    // The released bytes (and a little more) are no sign the disk has room: no probe.
    free = 1 << 20;
    clock.advance(3_000);
    expect(probes).toBe(0);
    expect(storage.problem()).toBeDefined();
    free = 64 << 20;
    clock.advance(1_000);
    expect(probes).toBe(1);
    expect(reserved).toBe(true);
    expect(storage.problem()).toBeUndefined();
  });

  it("asks for the WAL to be emptied when writes are refused and at each probe's turn while the room is short", () => {
    const clock = new ManualClock();
    let free = 0;
    let emptied = 0;
    const storage = createStorageWatch({
      database: DATABASE,
      clock,
      logger: recordingLogger().logger,
      probe: () => {},
      checkpointNow: () => {
        emptied += 1;
      },
      freeBytes: () => free,
      minFreeBytes: 2 << 20,
    });
    storage.report(FULL);
    expect(emptied).toBe(1);
    clock.advance(3_000);
    expect(emptied).toBe(4);
    expect(storage.problem()).toBeDefined();
    // What the WAL gave back is room enough: the probe writes, and one more empties what it wrote.
    free = 8 << 20;
    clock.advance(1_000);
    expect(storage.problem()).toBeUndefined();
    expect(emptied).toBe(5);
  });
});
