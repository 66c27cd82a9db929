import type { Config } from "../config/types.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { AnchorMonitor } from "../mount/anchors.js";
import type { Notifier } from "../notify/notifier.js";
import { channelsOf } from "../notify/settings.js";
import { secretValuesOf } from "../config/secrets.js";
import type { QueueEvents } from "../queue/events.js";
import type { DeliveryHandle } from "../delivery/scheduler.js";
import type { ChannelPolicy } from "../notify/channel.js";
import type { DriveHandle } from "./drive.js";

export interface NotificationsDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  /** The queue's events: failed and unconfirmed scans. */
  queue: QueueEvents;
  /** Late-bound: the scheduler and the drive monitor start after the notifications. */
  delivery(): DeliveryHandle | undefined;
  drive(): DriveHandle | undefined;
  /** The service's anchor monitor; its last check is read, never a new one made. */
  anchors: AnchorMonitor | undefined;
  /** How often target, anchor and drive states are looked at; 15 s by default. */
  everyMs?: number;
  /** Tests shorten the batching window and the retries. */
  policy?: Partial<ChannelPolicy>;
  timeoutMs?: number;
}

export interface NotificationsHandle {
  /** Resolves when no message is being posted. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * NOTIFICATIONS for `scanarr serve`: failed and unconfirmed scans from the
 * queue's events after each commit; targets
 * down, anchors missing and drive monitoring failing from a look at their
 * states every few seconds. Nothing runs, and nothing of notify/ beyond the
 * settings is loaded, when no receiver is configured.
 */
export async function startNotifications(deps: NotificationsDeps): Promise<NotificationsHandle> {
  const { config, clock, logger } = deps;
  const channels = channelsOf(config);
  if (channels.length === 0) {
    return { settled: async () => {}, stop: async () => {} };
  }
  const [{ createNotifier }, { observeQueue }, { watchStates }] = await Promise.all([
    import("../notify/notifier.js"),
    import("../notify/observe-queue.js"),
    import("../notify/state-watch.js"),
  ]);
  const notifier: Notifier = createNotifier({
    channels,
    secrets: secretValuesOf(config),
    clock,
    logger,
    ...(deps.policy ? { policy: deps.policy } : {}),
    ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
  });
  const notify = notifier.notify;
  const watch = watchStates(
    {
      targets: () => deps.delivery()?.targetStates() ?? {},
      anchors: () => deps.anchors?.current(),
      drive: () => {
        if (!config.CLOUD.ENABLED) return undefined;
        const d = deps.drive();
        return d ? { problem: d.problem, lastPoll: d.monitor?.lastPoll() } : undefined;
      },
    },
    { clock, notify, everyMs: deps.everyMs ?? 15_000, targetDownMs: config.NOTIFY_TARGET_DOWN_MINUTES * 60_000 },
  );
  const unsubscribe = observeQueue(deps.queue, notify, clock);
  logger.info({ receivers: channels.map((c) => `${c.type} ${URL.canParse(c.url) ? new URL(c.url).host : "?"}`) }, "notifications on");
  return {
    settled: () => notifier.settled(),
    async stop() {
      unsubscribe();
      watch.stop();
      await notifier.stop();
    },
  };
}
