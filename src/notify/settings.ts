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

/** Every secret of the config a message could echo (an error text quoting a token, say): they are masked out of every message. */
export function secretsOf(config: Config): string[] {
  return [
    config.SERVER_PASS,
    config.PLEX_TOKEN,
    config.CLOUD.CLIENT_SECRET,
    config.RCLONE.RC_CACHE_REFRESH.RC_PASS,
    ...config.TARGETS.flatMap((t) => [t.TOKEN, t.PASSWORD]),
    ...config.NOTIFICATIONS.flatMap((n) => (URL.canParse(n.URL) ? tokenLike(new URL(n.URL)) : [])),
  ].filter((s) => s.length >= 4);
}

/** Parts of a receiver's URL long enough to be a token (Discord's is 68 characters); "/hooks" is not masked everywhere. */
function tokenLike(url: URL): string[] {
  const parts = [...url.pathname.split("/"), ...[...url.searchParams.values()]];
  return parts.filter((p) => p.length >= 16);
}
