import type { Clock } from "../lib/clock.js";
import type { AnchorStatus } from "../mount/anchors.js";
import type { Notify } from "./events.js";

/** What the running service knows, read on every look; nothing here touches a mount or a server. */
export interface WatchedStates {
  /** Each target's state as the scheduler sees it. */
  targets(): Record<string, { state: "ok" | "unavailable" | "misconfigured"; failures: number }>;
  /** The anchors' last check; undefined before the first or when none is configured. */
  anchors(): AnchorStatus | undefined;
  /** Drive monitoring: why it is off, or how its last poll went; undefined when CLOUD.ENABLED is false. */
  drive(): { problem: string | undefined; lastPoll: { ok: boolean; at: number } | undefined } | undefined;
}

export interface StateWatchOptions {
  clock: Clock;
  notify: Notify;
  /** How often the states are looked at. */
  everyMs: number;
  /** How long a target stays down before it is told (NOTIFY_TARGET_DOWN_MINUTES). */
  targetDownMs: number;
  /** Failed drive polls in a row before drive monitoring counts as failing (one failed poll is often a blip). */
  drivePollFailures?: number;
}

/**
 * Turns states into events on their changes: a target down for longer than
 * `targetDownMs` (and back, once told), anchors missing (and back), drive
 * monitoring failing (and back). Each problem is told once, not at every look.
 */
export function watchStates(states: WatchedStates, options: StateWatchOptions): { check(): void; stop(): void } {
  const { clock, notify } = options;
  const down = new Map<string, { since: number; told: boolean }>();
  let missingTold = new Set<string>();
  const drive = { told: false, failedPolls: 0, lastPollAt: undefined as number | undefined };

  const checkTargets = (now: number) => {
    for (const [target, t] of Object.entries(states.targets())) {
      const was = down.get(target);
      if (t.state === "ok") {
        if (was?.told) notify({ type: "target-up", at: now, target, since: was.since });
        down.delete(target);
        continue;
      }
      const since = was?.since ?? now;
      const told = was?.told === true || now - since >= options.targetDownMs;
      if (told && !was?.told) notify({ type: "target-down", at: now, target, state: t.state, since, failures: t.failures });
      down.set(target, { since, told });
    }
  };

  const checkAnchors = (now: number) => {
    const status = states.anchors();
    if (!status) return;
    const missing = status.missing.filter((m) => !missingTold.has(m.path));
    const stillMissing = new Set(status.missing.map((m) => m.path));
    const back = [...missingTold].filter((p) => !stillMissing.has(p));
    if (missing.length > 0) notify({ type: "anchors-missing", at: now, missing });
    if (back.length > 0) notify({ type: "anchors-back", at: now, paths: back });
    missingTold = stillMissing;
  };

  const checkDrive = (now: number) => {
    const d = states.drive();
    if (!d) return;
    const poll = d.lastPoll;
    if (poll && poll.at !== drive.lastPollAt) {
      drive.lastPollAt = poll.at;
      drive.failedPolls = poll.ok ? 0 : drive.failedPolls + 1;
    }
    const threshold = options.drivePollFailures ?? 2;
    const problem =
      d.problem ?? (drive.failedPolls >= threshold ? `the last ${drive.failedPolls} drive polls failed (the log says why)` : undefined);
    if (problem !== undefined && !drive.told) notify({ type: "drive-failing", at: now, problem });
    if (problem === undefined && drive.told) notify({ type: "drive-back", at: now });
    drive.told = problem !== undefined;
  };

  let timer: unknown;
  let stopped = false;
  const check = () => {
    const now = clock.now();
    checkTargets(now);
    checkAnchors(now);
    checkDrive(now);
  };
  const loop = () => {
    timer = undefined;
    if (stopped) return;
    check();
    timer = clock.setTimeout(loop, options.everyMs);
  };
  loop();
  return {
    check,
    stop() {
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
    },
  };
}
