import { withTargetDefaults } from "../../src/config/defaults.js";
import type { TargetConfig } from "../../src/config/types.js";
import { startFakeEmby, type FakeEmby } from "./emby.js";
import { startFakeJellyfin, type FakeJellyfin } from "./jellyfin.js";

/** Jellyfin and Emby beside a Plex that sees /data/TV, and the TARGETS entries that reach them. */
export interface OtherServers {
  jellyfin: FakeJellyfin;
  emby: FakeEmby;
  targets: TargetConfig[];
  close(): Promise<void>;
}

/**
 * Each server sees the TV library in its own path form: Jellyfin (in its
 * container) /media/TV, Emby /mnt/tv; each entry's PATH_MAPPINGS turns
 * Plex's /data/TV into it. `seasons` ("Show/Season 1"): folders both
 * servers already hold (an episode in each, on their disks too), so a scan
 * of one refreshes that folder's item rather than the library's.
 */
export async function startOtherServers(seasons: readonly string[] = []): Promise<OtherServers> {
  const jellyfin = await startFakeJellyfin({
    libraries: [{ name: "Shows", id: "j1", collectionType: "tvshows", locations: ["/media/TV"] }],
  });
  const emby = await startFakeEmby({ libraries: [{ name: "TV", id: "e1", collectionType: "tvshows", locations: ["/mnt/tv"] }] });
  for (const [server, root] of [
    [jellyfin, "/media/TV"],
    [emby, "/mnt/tv"],
  ] as const) {
    for (const season of seasons) {
      server.addItem(`${root}/${season}/held.mkv`);
      server.scans.disk.add(`${root}/${season}/held.mkv`);
    }
  }
  // These tests are about delivery: a delivery ends when the server took the scan (test/after-scan/ confirms it too).
  const noConfirmation = { CONFIRM_SCANS: false };
  const targets = [
    withTargetDefaults({
      TYPE: "jellyfin",
      NAME: "jellyfin",
      URL: jellyfin.url,
      TOKEN: jellyfin.token,
      PATH_MAPPINGS: { "/media/TV/": ["/data/TV/"] },
      ...noConfirmation,
    }),
    withTargetDefaults({
      TYPE: "emby",
      NAME: "emby",
      URL: emby.url,
      TOKEN: emby.token,
      PATH_MAPPINGS: { "/mnt/tv/": ["/data/TV/"] },
      ...noConfirmation,
    }),
  ];
  return {
    jellyfin,
    emby,
    targets,
    async close() {
      await Promise.all([jellyfin.close(), emby.close()]);
    },
  };
}

/**
 * Each path a scan reached the server with: the folders whose items were
 * refreshed, and Media/Updated's entries, leaving out an entry naming a
 * folder that was refreshed (a folder-only scan's companion report, which
 * lets the server's own walk find a folder that is gone).
 */
export function scannedPaths(server: FakeJellyfin | FakeEmby): string[] {
  const refreshed = server.items.refreshes.map((r) => r.path);
  const known = new Set(refreshed);
  return [...server.mediaUpdates.flatMap((call) => call.map((u) => u.path)).filter((p) => !known.has(p)), ...refreshed];
}
