import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { ManualClock } from "../../src/lib/clock.js";
import { tempDir } from "../helpers/cli.js";
import { sharedFixture } from "../helpers/shared-fixtures.js";
import { postJson, startTestService, TEST_PASS, type TestService } from "../helpers/service.js";

const webhooks = sharedFixture("webhooks", "the quiet-time tests");
const running: TestService[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.stop();
});

const DEFAULT_DELAY_S = defaultConfig(TEST_PASS).SERVER_SCAN_DELAY;
const SEASON = "/data/TV/Vinland Saga/Season 1";
const fileName = (n: number) => `Vinland Saga - S01E0${n} - Episode ${n} Bluray-1080p.mkv`;

interface Setup {
  t: TestService;
  clock: ManualClock;
  /** This machine's copy of the TV library folder (/data/TV as Plex sees it). */
  tv: string;
  /** Clock times (ms after the start) at which the fake Plex was asked to scan, with the folder. */
  scans: Array<{ at: number; path: string | null }>;
  start: number;
  /** Waits (in real time) until Plex was asked `count` scans in all, and records them in `scans`. */
  waitScans(count: number): Promise<void>;
}

/**
 * A real serve on the default quiet time and automatic file checks; the TV
 * library's folder lives in a temp dir (SERVER_FILE_EXIST_PATH_MAPPINGS), the
 * Movies library's folder is on no disk here.
 */
async function serve(overrides: Partial<Config> = {}): Promise<Setup> {
  const clock = new ManualClock();
  const start = clock.now();
  const local = tempDir();
  const tv = path.join(local, "TV");
  mkdirSync(path.join(tv, "Vinland Saga", "Season 1"), { recursive: true });
  const t = await startTestService(
    {
      SERVER_SCAN_DELAY: DEFAULT_DELAY_S,
      SERVER_MAX_FILE_CHECKS: undefined,
      SERVER_FILE_EXIST_PATH_MAPPINGS: { [`${tv}/`]: ["/data/TV/"] },
      ...overrides,
    },
    { clock },
  );
  running.push(t);
  const scans: Setup["scans"] = [];
  // Each refresh the fake Plex receives, with the clock time it came at (read as it arrives).
  const waitScans = async (count: number) => {
    await t.plex.waitForRefreshes(count, 10_000);
    for (const r of t.plex.refreshes.slice(scans.length)) scans.push({ at: clock.now() - start, path: r.path });
  };
  return { t, clock, tv, scans, start, waitScans };
}

function perFileImport(n: number): Record<string, unknown> {
  const body = JSON.parse(readFileSync(webhooks.file("sonarr-download.json"), "utf8")) as Record<string, unknown>;
  return {
    ...body,
    series: { ...(body.series as object), title: "Vinland Saga", path: "/tv/Vinland Saga" },
    episodeFile: {
      ...(body.episodeFile as object),
      relativePath: `Season 1/${fileName(n)}`,
      path: `/tv/Vinland Saga/Season 1/${fileName(n)}`,
    },
  };
}

function importComplete(count: number): Record<string, unknown> {
  const body = JSON.parse(readFileSync(webhooks.file("sonarr-download-import-complete.json"), "utf8")) as Record<string, unknown>;
  const template = (body.episodeFiles as Array<Record<string, unknown>>)[0];
  const episodeFiles = Array.from({ length: count }, (_, i) => ({
    ...template,
    relativePath: `Season 1/${fileName(i + 1)}`,
    path: `/tv/Vinland Saga/Season 1/${fileName(i + 1)}`,
  }));
  return { ...body, episodeFiles };
}

const onDisk = (s: Setup, n: number) => writeFileSync(path.join(s.tv, "Vinland Saga", "Season 1", fileName(n)), "x");
const pending = async (t: TestService) =>
  ((await (await fetch(`${t.base}/api/queue`)).json()) as { pending: Array<{ folder: string; state: string; fileChecks: number }> })
    .pending;

describe.runIf(webhooks.run)("the quiet time and the batch's end, through serve", () => {
  it(`asks Plex about one Sonarr import within 15 s: after the ${DEFAULT_DELAY_S} s quiet time, once its file is seen`, async () => {
    expect(DEFAULT_DELAY_S).toBeLessThanOrEqual(12);
    const s = await serve();
    onDisk(s, 1);
    expect((await postJson(s.t.base, perFileImport(1))).status).toBe(202);
    s.clock.advance(DEFAULT_DELAY_S * 1000 - 1_000);
    expect(await pending(s.t)).toMatchObject([{ folder: SEASON, state: "debouncing" }]);
    expect(s.t.plex.refreshes).toEqual([]);
    s.clock.advance(1_000);
    await s.waitScans(1);
    expect(s.scans).toEqual([{ at: DEFAULT_DELAY_S * 1000, path: SEASON }]);
    expect(s.scans[0]?.at).toBeLessThanOrEqual(15_000);
  });

  it("scans a season pack once, at its Import Complete: 8 per-file webhooks 1.5 s apart, then the batch's end", async () => {
    const s = await serve();
    for (let n = 1; n <= 8; n++) {
      onDisk(s, n);
      expect((await postJson(s.t.base, perFileImport(n))).status).toBe(202);
      s.clock.advance(1_500);
    }
    expect(s.t.plex.refreshes).toEqual([]);
    const doneAt = s.clock.now() - s.start;
    expect((await postJson(s.t.base, importComplete(8))).status).toBe(202);
    s.clock.advance(0);
    await s.waitScans(1);
    expect(s.scans).toEqual([{ at: doneAt, path: SEASON }]);
    // Nothing else follows: the quiet time the per-file requests asked for was merged into that one scan.
    await expect.poll(() => pending(s.t), { timeout: 10_000 }).toEqual([]);
    s.clock.advance(120_000);
    expect(await pending(s.t)).toEqual([]);
    expect(s.t.plex.refreshes).toHaveLength(1);
  });

  it("holds an Import Complete whose files are not on disk yet for the file checks, and no longer", async () => {
    const s = await serve();
    expect((await postJson(s.t.base, importComplete(2))).status).toBe(202);
    s.clock.advance(0);
    // The first round ran at once and found nothing.
    await expect.poll(async () => (await pending(s.t))[0]?.fileChecks, { timeout: 10_000 }).toBe(1);
    expect((await pending(s.t))[0]?.state).toBe("waiting-for-files");
    expect(s.t.plex.refreshes).toEqual([]);
    onDisk(s, 1);
    onDisk(s, 2);
    const delay = defaultConfig(TEST_PASS).SERVER_FILE_CHECK_DELAY * 1000;
    s.clock.advance(delay);
    await s.waitScans(1);
    expect(s.scans).toEqual([{ at: delay, path: SEASON }]);
    // The library folder was looked at once, for both rounds and both files.
    expect(s.t.logs().split(`file checks on for /data/TV: its folder is on this machine (${s.tv})`)).toHaveLength(2);
  });

  it("keeps a config's SERVER_SCAN_DELAY of 180 s: one import waits it out (plex_autoscan's behaviour)", async () => {
    const s = await serve({ SERVER_SCAN_DELAY: 180 });
    onDisk(s, 3);
    expect((await postJson(s.t.base, perFileImport(3))).status).toBe(202);
    s.clock.advance(179_000);
    expect(await pending(s.t)).toMatchObject([{ folder: SEASON, state: "debouncing" }]);
    expect(s.t.plex.refreshes).toEqual([]);
    s.clock.advance(1_000);
    await s.waitScans(1);
    expect(s.scans).toEqual([{ at: 180_000, path: SEASON }]);
  });

  it("answers a garbage or hostile Import Complete 400 and changes nothing: the waiting scan keeps its time", async () => {
    const s = await serve();
    expect((await postJson(s.t.base, perFileImport(4))).status).toBe(202);
    const before = await pending(s.t);
    const empty = await postJson(s.t.base, { ...importComplete(1), episodeFiles: [] });
    expect(empty).toMatchObject({ status: 400, body: { error: "sonarr Download: episodeFiles is missing or empty" } });
    const outside = importComplete(1);
    (outside.episodeFiles as Array<Record<string, unknown>>).push({ path: "/tv/Other Show/Season 1/x.mkv" });
    const answer = await postJson(s.t.base, outside);
    expect(answer.status).toBe(400);
    expect(String(answer.body.error)).toBe('sonarr Download: "/tv/Other Show/Season 1/x.mkv" lies outside series.path "/tv/Vinland Saga"');
    const notList = await postJson(s.t.base, { ...importComplete(1), episodeFiles: "everything" });
    expect(notList).toMatchObject({ status: 400, body: { error: "sonarr Download: episodeFiles must be a list" } });
    expect(await pending(s.t)).toEqual(before);
    s.clock.advance(0);
    expect(s.t.plex.refreshes).toEqual([]);
  });

  it("leaves the files of a library whose folder is not on this machine unchecked: the batch's end scans at once", async () => {
    const s = await serve();
    expect((await postJson(s.t.base, JSON.parse(readFileSync(webhooks.file("radarr-download.json"), "utf8")))).status).toBe(202);
    s.clock.advance(0);
    await s.waitScans(1);
    expect(s.scans).toEqual([{ at: 0, path: "/data/Movies/Arrival (2016)" }]);
    // At start the mode; each library folder's answer when a file under it is first checked.
    expect(s.t.logs()).toContain("file checks automatic (SERVER_MAX_FILE_CHECKS unset)");
    expect(s.t.logs()).toContain("file checks off for /data/Movies: its folder is not on this machine (/data/Movies)");
    expect(s.t.logs()).not.toContain("file checks on for /data/TV");
  });
});
