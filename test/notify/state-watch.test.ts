import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import type { AnchorStatus } from "../../src/mount/anchors.js";
import type { NotifyEvent } from "../../src/notify/events.js";
import { watchStates, type WatchedStates } from "../../src/notify/state-watch.js";

type TargetState = ReturnType<WatchedStates["targets"]>[string];

/** Mutable states as the service would show them, and the events the watch made from them. */
function setUp(options: { drive?: boolean } = {}) {
  const clock = new ManualClock();
  const events: NotifyEvent[] = [];
  const now: {
    targets: Record<string, TargetState>;
    anchors: AnchorStatus | undefined;
    drive: { problem: string | undefined; lastPoll: { ok: boolean; at: number } | undefined };
  } = {
    targets: { plex: { state: "ok", failures: 0 } },
    anchors: undefined,
    drive: { problem: undefined, lastPoll: undefined },
  };
  const watch = watchStates(
    { targets: () => now.targets, anchors: () => now.anchors, drive: () => (options.drive ? now.drive : undefined) },
    { clock, notify: (e) => events.push(e), everyMs: 15_000, targetDownMs: 10 * 60_000 },
  );
  const types = () => events.map((e) => e.type);
  return { clock, events, now, watch, types };
}

describe("watching target, anchor and drive states", () => {
  it("tells of a target down only after NOTIFY_TARGET_DOWN_MINUTES, once, and of its return", () => {
    const { clock, now, events, types, watch } = setUp();
    const start = clock.now();
    now.targets.plex = { state: "unavailable", failures: 1 };
    clock.advance(15_000);
    now.targets.plex = { state: "unavailable", failures: 4 };
    clock.advance(9 * 60_000);
    expect(types()).toEqual([]);
    clock.advance(60_000);
    expect(events).toEqual([
      { type: "target-down", at: start + 10 * 60_000 + 15_000, target: "plex", state: "unavailable", since: start + 15_000, failures: 4 },
    ]);
    clock.advance(60 * 60_000);
    expect(types()).toEqual(["target-down"]);
    now.targets.plex = { state: "ok", failures: 0 };
    watch.check();
    expect(events[1]).toEqual({ type: "target-up", at: clock.now(), target: "plex", since: start + 15_000 });
  });

  it("says nothing of a target that was down for less than the threshold", () => {
    const { clock, now, types } = setUp();
    now.targets.plex = { state: "misconfigured", failures: 1 };
    clock.advance(5 * 60_000);
    now.targets.plex = { state: "ok", failures: 0 };
    clock.advance(30 * 60_000);
    expect(types()).toEqual([]);
  });

  it("tells of anchors going missing, each once, and of their return", () => {
    const { clock, now, events, watch } = setUp();
    const status = (missing: string[]): AnchorStatus => ({
      ok: missing.length === 0,
      missing: missing.map((path) => ({ path, reason: "does not exist" })),
      checkedAt: clock.now(),
    });
    now.anchors = status(["/mnt/a/.anchor"]);
    watch.check();
    now.anchors = status(["/mnt/a/.anchor", "/mnt/b/"]);
    clock.advance(15_000);
    clock.advance(15_000);
    now.anchors = status([]);
    watch.check();
    expect(
      events.map((e) => (e.type === "anchors-missing" ? e.missing.map((m) => m.path) : e.type === "anchors-back" ? e.paths : e.type)),
    ).toEqual([["/mnt/a/.anchor"], ["/mnt/b/"], ["/mnt/a/.anchor", "/mnt/b/"]]);
    expect(events.map((e) => e.type)).toEqual(["anchors-missing", "anchors-missing", "anchors-back"]);
  });

  it("tells of drive monitoring failing after two failed polls in a row, and of its return", () => {
    const { clock, now, events, types, watch } = setUp({ drive: true });
    now.drive.lastPoll = { ok: false, at: clock.now() };
    watch.check();
    expect(types()).toEqual([]);
    now.drive.lastPoll = { ok: false, at: clock.now() + 1 };
    watch.check();
    expect(events).toEqual([{ type: "drive-failing", at: clock.now(), problem: "the last 2 drive polls failed (the log says why)" }]);
    now.drive.lastPoll = { ok: true, at: clock.now() + 2 };
    watch.check();
    expect(types()).toEqual(["drive-failing", "drive-back"]);
  });

  it("tells at once of drive monitoring that could not start", () => {
    const { now, events, watch } = setUp({ drive: true });
    now.drive.problem = "no drive credentials: run scanarr authorize";
    watch.check();
    watch.check();
    expect(events).toEqual([{ type: "drive-failing", at: expect.any(Number), problem: "no drive credentials: run scanarr authorize" }]);
  });
});
