import { maskSecret, maskUrlPath } from "../lib/mask.js";
import type { Config } from "./types.js";

/** Keys whose values are secrets, by dotted path: never printed, logged or echoed in an error. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(["SERVER_PASS", "PLEX_TOKEN", "CLOUD.CLIENT_SECRET"]);

/** A copy of the config safe to print: secrets show only their last four characters. */
export function maskConfig(config: Config): Config {
  return {
    ...config,
    SERVER_PASS: maskSecret(config.SERVER_PASS),
    PLEX_TOKEN: maskSecret(config.PLEX_TOKEN),
    SERVER_PASSWORD_HASH: config.SERVER_PASSWORD_HASH === "" ? "" : "(argon2id hash, set)",
    CLOUD: { ...config.CLOUD, CLIENT_SECRET: maskSecret(config.CLOUD.CLIENT_SECRET) },
    TARGETS: config.TARGETS.map((t) => ({ ...t, TOKEN: maskSecret(t.TOKEN), PASSWORD: maskSecret(t.PASSWORD) })),
    RCLONE: {
      ...config.RCLONE,
      RC_CACHE_REFRESH: { ...config.RCLONE.RC_CACHE_REFRESH, RC_PASS: maskSecret(config.RCLONE.RC_CACHE_REFRESH.RC_PASS) },
    },
    NOTIFICATIONS: config.NOTIFICATIONS.map((n) => ({ ...n, URL: maskUrlPath(n.URL) })),
  };
}
