import type { Config } from "./types.js";

/** What the shape cannot say about NOTIFICATIONS entries; never echoes a URL (its path may be a token). */
export function checkNotifications(config: Pick<Config, "NOTIFICATIONS">): string[] {
  const problems: string[] = [];
  config.NOTIFICATIONS.forEach((entry, i) => {
    const at = `NOTIFICATIONS[${i}]`;
    const url = URL.canParse(entry.URL) ? new URL(entry.URL) : undefined;
    // fetch refuses URLs with credentials; saying so now beats a warning at the first message.
    if (url && (url.username !== "" || url.password !== "")) {
      problems.push(`${at}.URL: must not hold a user name or password (user:pass@); scanarr cannot send to such a URL`);
    }
    if (entry.EVENTS !== undefined && entry.EVENTS.length === 0) {
      problems.push(`${at}.EVENTS: names no event; leave EVENTS out for all of them, or remove the entry`);
    }
  });
  return problems;
}
