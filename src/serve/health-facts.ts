import type { Config } from "../config/types.js";
import type { TargetRuntime } from "../domain.js";
import type { MountSafety } from "../mount/mount-safety.js";
import type { DeliveryHandle } from "../delivery/scheduler.js";
import type { HealthFacts } from "../server/health.js";
import type { DriveHandle } from "./drive.js";

export interface HealthSources {
  config: Config;
  targets: readonly Pick<TargetRuntime, "target">[];
  delivery: () => DeliveryHandle | undefined;
  drive: () => DriveHandle | undefined;
  mount: MountSafety;
  /** The filesystem watchers' state, shown as it is. */
  watch: () => unknown[];
  /** Why the database cannot write (disk full), or undefined while it can. */
  databaseProblem?: () => string | undefined;
}

/** What GET /health judges, gathered from the running parts; nothing here touches a mount or a server. */
export function gatherHealthFacts(sources: HealthSources): Omit<HealthFacts, "queue"> {
  const { config, targets, mount } = sources;
  const states = sources.delivery()?.targetStates() ?? {};
  const monitor = sources.drive()?.monitor;
  const status = mount.status();
  const missing = new Set(status.anchors?.missing.map((m) => m.path) ?? mount.anchors.anchors);
  const problems: string[] = [];
  if (status.rclone === "unreachable") problems.push("the rclone remote control does not answer");
  if (status.rclone === "unauthorized") problems.push("the rclone remote control refuses RC_USER/RC_PASS");
  const database = sources.databaseProblem?.();
  if (database !== undefined) problems.push(`${database}; webhooks are refused (507) and deliveries held until it can write`);
  return {
    targets: targets.map((b) => ({ name: b.target.name, contact: b.target.contact?.(), delivery: states[b.target.name] })),
    drive: config.CLOUD.ENABLED ? { enabled: true, running: monitor !== undefined, lastPoll: monitor?.lastPoll() } : undefined,
    anchors: mount.anchors.anchors.map((path) => ({ path, present: !missing.has(path) })),
    anchorsCheckedAt: status.anchors?.checkedAt,
    details: { watch: sources.watch(), database: { writable: database === undefined } },
    problems,
  };
}
