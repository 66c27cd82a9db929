import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { Channel, DEFAULT_POLICY, type ChannelPolicy } from "./channel.js";
import { SUBSCRIPTION_OF, type NotifyEvent } from "./events.js";
import { formatDiscord } from "./format-discord.js";
import { formatJson } from "./format-json.js";
import { createScrubber } from "./scrub.js";
import { postMessage } from "./send.js";
import type { NotificationChannel } from "./settings.js";

export interface NotifierDeps {
  channels: readonly NotificationChannel[];
  /** Texts masked out of every message (the config's secrets). */
  secrets: readonly string[];
  clock: Clock;
  logger: Logger;
  /** Bound of one HTTP attempt; 10 s by default. */
  timeoutMs?: number;
  policy?: Partial<ChannelPolicy>;
}

export interface Notifier {
  /** Hands an event to every channel that asked for its kind; never throws, never waits. */
  notify(event: NotifyEvent): void;
  /** Resolves when no message is being posted (tests wait on it before moving the clock). */
  settled(): Promise<void>;
  /** Stops sending: what waits is dropped (logged), an attempt under way is cut. */
  stop(): Promise<void>;
}

/** Sends events to the NOTIFICATIONS receivers, batched and retried per receiver. */
export function createNotifier(deps: NotifierDeps): Notifier {
  const { clock, logger } = deps;
  const abort = new AbortController();
  const scrub = createScrubber(deps.secrets);
  const policy = { ...DEFAULT_POLICY, ...deps.policy };
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const channels = deps.channels.map((c) => {
    const host = URL.canParse(c.url) ? new URL(c.url).host : "(bad URL)";
    const channel = new Channel({
      host,
      clock,
      logger,
      policy,
      send: (batch) =>
        postMessage(c.url, c.type === "discord" ? formatDiscord(batch) : formatJson(batch), {
          timeoutMs,
          signal: abort.signal,
          now: clock.now(),
        }),
    });
    return { events: c.events, channel };
  });
  return {
    notify(event) {
      const clean = scrubEvent(event, scrub);
      for (const c of channels) if (c.events.has(SUBSCRIPTION_OF[event.type])) c.channel.add(clean);
    },
    async settled() {
      await Promise.all(channels.map((c) => c.channel.settled()));
    },
    async stop() {
      const stopping = Promise.all(channels.map((c) => c.channel.stop()));
      abort.abort();
      await stopping;
    },
  };
}

/** The event with every free text made safe; names and paths are the user's own and kept. */
function scrubEvent(event: NotifyEvent, scrub: (text: string) => string): NotifyEvent {
  switch (event.type) {
    case "scan-failed":
    case "scan-unconfirmed":
      return { ...event, error: scrub(event.error) };
    case "anchors-missing":
      return { ...event, missing: event.missing.map((m) => ({ path: m.path, reason: scrub(m.reason) })) };
    case "drive-failing":
      return { ...event, problem: scrub(event.problem) };
    default:
      return event;
  }
}
