import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withTargetDefaults } from "../../src/config/defaults.js";
import { ManualClock } from "../../src/lib/clock.js";
import { startFakeEmby, type FakeEmby } from "../fakes/emby.js";
import { startFakeJellyfin, type FakeJellyfin } from "../fakes/jellyfin.js";
import { runCli } from "../helpers/cli.js";
import { postJson, startTestService, waitFor, type TestService } from "../helpers/service.js";
import { advanceUntil, scanOf, type ScanView } from "./serve-steps.js";

// Sonarr writes /tv (SERVER_PATH_MAPPINGS: /tv → /data/TV); Jellyfin's container sees /media/TV, Emby's /mnt/tv.
const SEASON = "/data/TV/Show/Season 1";
const EPISODE = "Show - S01E01.mkv";

interface Kind {
  type: "jellyfin" | "emby";
  server: "Jellyfin" | "Emby";
  root: string;
  start(): Promise<FakeJellyfin | FakeEmby>;
}

const KINDS: Kind[] = [
  {
    type: "jellyfin",
    server: "Jellyfin",
    root: "/media/TV",
    start: () => startFakeJellyfin({ libraries: [{ name: "Shows", id: "a656b907", collectionType: "tvshows", locations: ["/media/TV"] }] }),
  },
  {
    type: "emby",
    server: "Emby",
    root: "/mnt/tv",
    start: () => startFakeEmby({ libraries: [{ name: "Shows", id: "e1", collectionType: "tvshows", locations: ["/mnt/tv"] }] }),
  },
];

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

interface Setup {
  t: TestService;
  fake: FakeJellyfin | FakeEmby;
  clock: ManualClock;
  /** The episode as this server sees it. */
  file: string;
  /** Every detail the delivery showed while the clock moved, in order. */
  details: string[];
  until(state: string): Promise<ScanView>;
}

async function start(kind: Kind, entry: Record<string, unknown> = {}, options: { scanMs?: number; timeoutMs?: number } = {}) {
  const fake = await kind.start();
  cleanups.push(() => fake.close());
  const clock = new ManualClock(Date.now());
  // The server's scans take their time on the service's clock.
  fake.scans.timing = { ms: options.scanMs ?? 15_000, now: () => clock.now() };
  const TARGETS = [
    {
      ...withTargetDefaults({ TYPE: kind.type, NAME: kind.type, URL: fake.url, TOKEN: fake.token }),
      PATH_MAPPINGS: { [`${kind.root}/`]: ["/data/TV/"] },
      ...entry,
    },
  ];
  const t = await startTestService(
    { PLEX_ENABLED: false, TARGETS },
    { clock, ...(options.timeoutMs ? { targetTimeoutMs: options.timeoutMs } : {}) },
  );
  cleanups.push(() => t.stop());
  const details: string[] = [];
  const setup: Setup = {
    t,
    fake,
    clock,
    file: `${kind.root}/Show/Season 1/${EPISODE}`,
    details,
    async until(state) {
      const read = async () => {
        const scan = await scanOf(t.base, SEASON);
        const detail = scan?.deliveries[0]?.detail;
        if (detail && details.at(-1) !== detail) details.push(detail);
        return scan;
      };
      await advanceUntil(
        clock,
        () => fake.requests.length,
        async () => (await read())?.state === state,
        `the scan to be ${state}`,
      );
      return (await read()) as ScanView;
    },
  };
  return setup;
}

async function sonarrImport(s: Setup): Promise<void> {
  const body = { eventType: "Download", series: { title: "Show", path: "/tv/Show" }, episodeFile: { relativePath: `Season 1/${EPISODE}` } };
  expect((await postJson(s.t.base, body)).status).toBe(202);
}

/** `scanarr status` of the imported file, against the running service's install folder. */
async function statusOf(s: Setup): Promise<string> {
  const { code, stdout } = await runCli(["--install-dir", path.dirname(s.t.paths.dataDir), "status", `/tv/Show/Season 1/${EPISODE}`]);
  expect(code).toBe(0);
  return stdout;
}

const tasksRead = (fake: FakeJellyfin | FakeEmby) => fake.requests.filter((r) => /\/ScheduledTasks$/i.test(r.url)).length;

describe.each(KINDS)("serve: $server confirms a delivered scan", (kind) => {
  it("confirms a Sonarr import once the server finished scanning and lists the file", async () => {
    const s = await start(kind, {}, { scanMs: 25_000 });
    s.fake.scans.disk.add(s.file);
    await sonarrImport(s);
    const scan = await s.until("done");
    const [delivery] = scan.deliveries;
    expect(delivery?.state).toBe("done");
    expect(delivery?.detail).toMatch(/^confirmed \d+ s after the first request$/);
    expect(delivery?.confirmedAfterMs).toBeGreaterThanOrEqual(10_000);
    // While the server scanned, the delivery said so in the server's name.
    expect(s.details).toContainEqual(expect.stringMatching(new RegExp(`^waiting for ${kind.server} to confirm: Shows`)));
    // The server knows nothing of the show yet: the library's own item is refreshed, once.
    expect(s.fake.items.refreshes.map((r) => r.path)).toEqual([kind.root]);
    expect(s.fake.mediaUpdates).toEqual([]);
    expect(tasksRead(s.fake)).toBeGreaterThanOrEqual(3);
    expect(await statusOf(s)).toMatch(new RegExp(`${kind.type}\\s+done at \\d\\d:\\d\\d:\\d\\d \\(1 attempt\\)`));
    // Emby is asked for the one path; Jellyfin, which has no path filter, for its newest files (one page).
    if (kind.type === "emby") expect(s.fake.items.pathLookups).toContain(s.file);
    else expect(new Set(s.fake.items.listings)).toEqual(new Set([0]));
  });

  it("scans again once, then ends unconfirmed naming the file the server never lists", async () => {
    const s = await start(kind, { CONFIRM_RESCAN_DELAY: 30 });
    s.fake.scans.disk.add(s.file);
    s.fake.scans.neverLists.add(s.file);
    await sonarrImport(s);
    const scan = await s.until("unconfirmed");
    const [delivery] = scan.deliveries;
    expect(delivery?.state).toBe("unconfirmed");
    expect(delivery?.lastError).toContain(`not as expected in ${kind.server}`);
    expect(delivery?.lastError).toContain(`not as expected: ${s.file}`);
    expect(delivery?.confirmedAfterMs).toBeNull();
    // The first scan and exactly one re-scan.
    expect(s.fake.items.refreshes).toHaveLength(2);
    expect(s.details).toContainEqual(expect.stringContaining(`not in ${kind.server} yet: ${s.file}`));
    const status = await statusOf(s);
    expect(status).toMatch(
      new RegExp(`${kind.type}\\s+unconfirmed at \\d\\d:\\d\\d:\\d\\d.*: unconfirmed: 1 file not as expected in ${kind.server}`),
    );
    expect(status).toContain(`not as expected: ${s.file}`);
  });

  it("keeps polling past a lookup that hangs, and confirms once the server answers again", async () => {
    const s = await start(kind, {}, { scanMs: 0, timeoutMs: 200 });
    s.fake.scans.disk.add(s.file);
    await sonarrImport(s);
    // The scan goes out (its folder's lookup answered), then the server's item lookups hang.
    await waitFor(
      () => {
        if (s.fake.items.refreshes.length > 0) return true;
        s.clock.advance(1_000);
        return false;
      },
      20_000,
      "the scan to reach the server",
    );
    s.fake.items.hang = true;
    const failed = () => s.t.logs().split(`could not ask ${kind.server} about the scans being confirmed; asking again`).length - 1;
    // Each poll gives up on the hung lookup after the time-out, and a later poll asks again: the clock moves until three did.
    await waitFor(
      () => {
        if (failed() >= 3) return true;
        s.clock.advance(1_000);
        return false;
      },
      20_000,
      "three polls to give up on the hung lookup",
    );
    expect(s.fake.items.listings.length + s.fake.items.pathLookups.length).toBeGreaterThanOrEqual(3);
    expect((await scanOf(s.t.base, SEASON))?.state).toBe("confirming");
    s.fake.items.hang = false;
    const scan = await s.until("done");
    expect(scan.deliveries[0]?.detail).toMatch(/^confirmed \d+ s after the first request$/);
  });
});
