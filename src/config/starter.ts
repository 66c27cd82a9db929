import { defaultConfig } from "./defaults.js";

/**
 * The config `scanarr init` (and the first `serve`) writes: the keys a new
 * user edits, each after a note. JSON has no comments, so the notes are keys
 * starting with "_", which the loader ignores; keys left out take their
 * defaults (`scanarr config show` lists every one).
 */
export function starterConfig(pass: string): Record<string, unknown> {
  const defaults = defaultConfig(pass);
  const cloud = defaults.CLOUD;
  return {
    _README:
      'scanarr config. Keys starting with "_" are notes that scanarr ignores. Lines marked EDIT need your values. ' +
      "Every key is in docs/configuration.md; `scanarr config show` prints the effective config.",
    SERVER_IP: defaults.SERVER_IP,
    SERVER_PORT: defaults.SERVER_PORT,
    _SERVER_PASS: "The secret last part of the webhook URL. `scanarr url` prints the whole URL to paste into Sonarr/Radarr.",
    SERVER_PASS: defaults.SERVER_PASS,
    SERVER_ALLOW_MANUAL_SCAN: defaults.SERVER_ALLOW_MANUAL_SCAN,
    _PLEX_LOCAL_URL:
      "EDIT: how scanarr reaches Plex: http://localhost:32400 on the same machine, http://plex:32400 from a container on Plex's network.",
    PLEX_LOCAL_URL: defaults.PLEX_LOCAL_URL,
    _PLEX_TOKEN: "EDIT: the token of the Plex server's admin account; docs/plex-token.md shows where to find it.",
    PLEX_TOKEN: defaults.PLEX_TOKEN,
    _PLEX_SCAN_METHOD: '"api" asks Plex over HTTP (needs PLEX_TOKEN); "scanner" runs Plex Media Scanner on this machine (docs/scan.md).',
    PLEX_SCAN_METHOD: defaults.PLEX_SCAN_METHOD,
    _SERVER_PATH_MAPPINGS:
      "EDIT: each key is a folder as Plex sees it (a library folder or inside one); its list holds the same folder as Sonarr/Radarr, " +
      "the rclone mount or the drive name it. Try a path with `scanarr map <path>`, then run `scanarr doctor`.",
    SERVER_PATH_MAPPINGS: {
      "/data/Movies/": ["/movies/", "/mnt/unionfs/Media/Movies/", "My Drive/Media/Movies/"],
      "/data/TV/": ["/tv/", "/mnt/unionfs/Media/TV/", "My Drive/Media/TV/"],
    },
    _SERVER_SCAN_DELAY:
      "Seconds a folder must be quiet (no new request) before it is scanned; an app that says its import is complete " +
      "(Sonarr's Import Complete, Radarr) skips the wait. plex_autoscan waited 180.",
    SERVER_SCAN_DELAY: defaults.SERVER_SCAN_DELAY,
    SERVER_IGNORE_LIST: defaults.SERVER_IGNORE_LIST,
    _CLOUD: "Google Drive monitoring; off until set up (docs/drive-monitoring.md).",
    CLOUD: {
      ENABLED: cloud.ENABLED,
      CLIENT_ID: cloud.CLIENT_ID,
      CLIENT_SECRET: cloud.CLIENT_SECRET,
      ALLOWED: cloud.ALLOWED,
      POLL_INTERVAL: cloud.POLL_INTERVAL,
    },
  };
}

/** The starter config as file text. */
export function starterConfigText(pass: string): string {
  return `${JSON.stringify(starterConfig(pass), null, 2)}\n`;
}
