import { afterEach, describe, expect, it } from "vitest";
import { scannedPaths, startOtherServers } from "../fakes/other-servers.js";
import { startFakePlex } from "../fakes/plex.js";
import { spawnServe, writeServeConfig, type ChildServe } from "../helpers/child-serve.js";
import { tempDir } from "../helpers/cli.js";
import { ARR_MAPPINGS, ARR_SECTIONS, TEST_PASS, waitFor } from "../helpers/service.js";

const CONCURRENCY = 4;
const FOLDERS = 1_000;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
let serve: ChildServe | undefined;
afterEach(async () => {
  serve?.child.kill("SIGKILL");
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** How often each folder reached a server, and which never did. */
function tally(paths: string[], wanted: string[]): { missing: string[]; repeats: number } {
  const seen = new Map<string, number>();
  for (const p of paths) seen.set(p, (seen.get(p) ?? 0) + 1);
  return { missing: wanted.filter((f) => !seen.has(f)), repeats: paths.length - seen.size };
}

describe("a crash of serve with several media servers", () => {
  it("delivers every acknowledged folder to every server after kill -9 mid-drain, repeating at most the calls in flight", async () => {
    const plex = await startFakePlex({ sections: ARR_SECTIONS });
    const others = await startOtherServers(Array.from({ length: FOLDERS }, (_, i) => `Show ${i}/Season 1`));
    cleanups.push(
      () => plex.close(),
      () => others.close(),
    );
    const { jellyfin, emby } = others;
    const dir = tempDir();
    writeServeConfig(dir, plex, {
      // Every request is in before the first scan falls due; the kill then lands mid-drain.
      SERVER_SCAN_DELAY: 10,
      SERVER_ALLOW_MANUAL_SCAN: true,
      SERVER_PATH_MAPPINGS: ARR_MAPPINGS,
      SERVER_DELIVERY_CONCURRENCY: CONCURRENCY,
      PLEX_CONFIRM_SCANS: false,
      TARGETS: others.targets,
    });
    serve = await spawnServe(dir);
    const base = `http://127.0.0.1:${serve.port}/${TEST_PASS}`;

    for (let i = 0; i < FOLDERS; i++) {
      const res = await fetch(base, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `eventType=Manual&filepath=${encodeURIComponent(`/tv/Show ${i}/Season 1/`)}`,
      });
      expect(res.status).toBe(202);
    }
    await waitFor(() => plex.refreshes.length >= 50, 30_000, "the drain to be under way");
    serve.child.kill("SIGKILL");
    await serve.exited;
    const before = { plex: plex.refreshes.length, jellyfin: scannedPaths(jellyfin).length, emby: scannedPaths(emby).length };

    serve = await spawnServe(dir);
    const folders = (root: string) => Array.from({ length: FOLDERS }, (_, i) => `${root}/Show ${i}/Season 1`);
    const paths = {
      plex: () => plex.refreshes.map((r) => r.path ?? ""),
      jellyfin: () => scannedPaths(jellyfin),
      emby: () => scannedPaths(emby),
    };
    const wanted = { plex: folders("/data/TV"), jellyfin: folders("/media/TV"), emby: folders("/mnt/tv") };
    const done = () => (Object.keys(paths) as Array<keyof typeof paths>).every((k) => tally(paths[k](), wanted[k]).missing.length === 0);
    await waitFor(done, 60_000, "every folder on every server");
    expect(before.plex).toBeLessThan(FOLDERS); // the kill did come mid-drain
    for (const server of ["plex", "jellyfin", "emby"] as const) {
      const { missing, repeats } = tally(paths[server](), wanted[server]);
      expect(missing, server).toEqual([]);
      // Only a call in flight at the kill (sent, its answer not yet recorded) can be made again.
      expect(repeats, server).toBeLessThanOrEqual(CONCURRENCY);
    }
  }, 120_000);
});
