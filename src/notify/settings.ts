import { NOTIFICATION_EVENTS } from "../config/schema.js";
import type { Config, NotificationEvent, NotificationType } from "../config/types.js";

/** One NOTIFICATIONS entry with its defaults applied. */
export interface NotificationChannel {
  url: string;
  type: NotificationType;
  events: ReadonlySet<NotificationEvent>;
}

const DISCORD_HOSTS = new Set(["discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"]);

/** A Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>) is sent Discord's format; anything else JSON. */
export function guessType(url: string): NotificationType {
  if (!URL.canParse(url)) return "json";
  const { hostname, pathname } = new URL(url);
  return DISCORD_HOSTS.has(hostname.toLowerCase()) && pathname.startsWith("/api/webhooks/") ? "discord" : "json";
}

export function channelsOf(config: Pick<Config, "NOTIFICATIONS">): NotificationChannel[] {
  return config.NOTIFICATIONS.map((entry) => ({
    url: entry.URL,
    type: entry.TYPE ?? guessType(entry.URL),
    events: new Set(entry.EVENTS ?? NOTIFICATION_EVENTS),
  }));
}
