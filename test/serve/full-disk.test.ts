import { existsSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/types.js";
import { WAL_LIMIT_BYTES } from "../../src/queue/storage/database.js";
import { postJson } from "../helpers/service.js";
import { canMountSmallDisk } from "../helpers/small-disk.js";
import { healthOf, serveOn, smallDiskInstall, walBytesOf, type SmallDiskInstall } from "../helpers/small-disk-service.js";

const DISK_BYTES = 24 * 1024 * 1024;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

type Serve = Awaited<ReturnType<typeof serveOn>>;

/** The fake Plex, and an install whose data folder is a 24 MiB file system of its own. */
const setUp = (overrides: Partial<Config> = {}) => smallDiskInstall(DISK_BYTES, cleanups, overrides);
const serve = (setup: SmallDiskInstall) => serveOn(setup, cleanups);

const folderOf = (n: number) => `/data/TV/Show ${n}/Season 1`;
const manual = (s: Serve, n: number) => postJson(s.base, { eventType: "Manual", filepath: `/tv/Show ${n}/Season 1` });

const health = (s: Serve) => healthOf(s.origin);

/**
 * Webhooks, one new folder each, until one is refused; the folders acknowledged (202) on the way. Some
 * are taken at first: the WAL reuses room it already has until a checkpoint needs the database to grow.
 */
async function postUntilRefused(s: Serve, from: number, acked: Set<string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const end = Date.now() + 15_000;
  for (let n = from; Date.now() < end; n++) {
    const answer = await manual(s, n);
    if (answer.status === 202) acked.add(folderOf(n));
    else return answer;
  }
  throw new Error("webhooks were still accepted 15 s after the disk filled");
}

const errorLines = (s: Serve) =>
  s
    .logs()
    .split("\n")
    .filter((line) => line.includes('"level":50'));

describe.skipIf(!canMountSmallDisk)("serve on a disk that fills up", () => {
  it("refuses webhooks with 507 while the disk is full, says why on /health, and takes them again once space returns", async () => {
    const setup = await setUp();
    const s = await serve(setup);
    const acked = new Set<string>();
    for (let n = 0; n < 20; n++) {
      expect((await manual(s, n)).status).toBe(202);
      acked.add(folderOf(n));
    }
    expect((await health(s)).status).toBe(200);

    setup.disk.fill();
    const refused = await postUntilRefused(s, 20, acked);
    expect(refused.status).toBe(507);
    // Whichever hit the full disk first says so: a commit, or the checkpoint thread (the WAL's 2 MiB bound).
    expect(String(refused.body.error)).toMatch(
      /^not queued, nothing was written: (the WAL checkpoint failed: )?the disk holding .*\/data is full \(SQLITE_FULL\)/,
    );
    const during = await health(s);
    expect(during.status).toBe(503);
    expect(during.body.status).toBe("degraded");
    expect(during.body.reasons?.join("; ")).toMatch(/the disk holding .*\/data is full/);
    const again = await fetch(s.base, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ eventType: "Manual", filepath: "/tv/Refused/Season 1" }),
    });
    expect(again.status).toBe(507);
    expect(again.headers.get("retry-after")).toBe("60");
    // autoscan's client stops for good on a 507; on its routes the same refusal is a 503 it retries.
    const forwarded = await fetch(`${s.base}/triggers/manual?dir=/tv/Refused/Season+1`, { method: "POST" });
    expect(forwarded.status).toBe(503);
    expect(forwarded.headers.get("retry-after")).toBe("60");
    expect(String(((await forwarded.json()) as { error: string }).error)).toMatch(
      /^not queued, nothing was written: (the WAL checkpoint failed: )?the disk holding/,
    );
    // The bytes kept aside went back to the disk, for the outcomes of deliveries under way.
    const reserveFile = path.join(setup.paths.dataDir, "scanarr.reserve");
    expect(existsSync(reserveFile)).toBe(false);
    // One clear error for the whole episode, however many webhooks were refused.
    expect(errorLines(s)).toHaveLength(1);
    expect(errorLines(s)[0]).toMatch(/is full.*webhooks are refused with 507 and deliveries are held/);

    const freedAt = Date.now();
    setup.disk.free();
    await expect.poll(async () => (await health(s)).status, { timeout: 10_000, interval: 100 }).toBe(200);
    const recoveredMs = Date.now() - freedAt;
    expect(recoveredMs).toBeLessThan(5_000);
    expect((await manual(s, 1_000)).status).toBe(202);
    acked.add(folderOf(1_000));
    expect(s.logs()).toMatch(/the database writes again: webhooks are accepted and deliveries resume/);
    expect(statSync(reserveFile).size).toBe(1024 * 1024);

    // Every acknowledged folder reaches Plex, once.
    await expect.poll(() => [...acked].filter((f) => !setup.plex.refreshes.some((r) => r.path === f)), { timeout: 15_000 }).toEqual([]);
    const paths = setup.plex.refreshes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    await expect.poll(() => walBytesOf(setup.paths), { timeout: 5_000 }).toBeLessThanOrEqual(WAL_LIMIT_BYTES);
  });

  it("stopped while the disk is full, starts again on it and recovers when space returns, losing no acknowledged webhook", async () => {
    const setup = await setUp();
    const first = await serve(setup);
    const acked = new Set<string>();
    setup.disk.fill();
    expect((await postUntilRefused(first, 0, acked)).status).toBe(507);
    await first.service.stop();
    // What the stop gave back is taken again, as the program that filled the disk would.
    setup.disk.fill();

    // It starts; whether the first write fails at start or with the first webhook depends on what room the WAL kept.
    const second = await serve(setup);
    expect((await postUntilRefused(second, 10_000, acked)).status).toBe(507);
    expect((await health(second)).status).toBe(503);
    setup.disk.free();
    await expect.poll(async () => (await health(second)).status, { timeout: 10_000, interval: 100 }).toBe(200);
    expect((await manual(second, 10_001)).status).toBe(202);
    acked.add(folderOf(10_001));
    await expect.poll(() => [...acked].filter((f) => !setup.plex.refreshes.some((r) => r.path === f)), { timeout: 15_000 }).toEqual([]);
  });

  it("starts on a disk that filled while it was stopped: shows the queue, holds deliveries, and delivers once space returns", async () => {
    const setup = await setUp({ SERVER_SCAN_DELAY: 1 });
    const first = await serve(setup);
    for (let n = 0; n < 5; n++) expect((await manual(first, n)).status).toBe(202);
    // A clean stop removes the WAL and -shm files; the next start has to make them again.
    await first.service.stop();
    expect(existsSync(`${setup.paths.database}-shm`)).toBe(false);
    setup.disk.fill();

    const second = await serve(setup);
    const during = await health(second);
    expect(during.status).toBe(503);
    expect(during.body.reasons?.join("; ")).toMatch(/is full/);
    const queue = (await (await fetch(`${second.base}/api/queue`)).json()) as { pending: Array<{ folder: string }> };
    expect(queue.pending.map((p) => p.folder).sort()).toEqual([0, 1, 2, 3, 4].map(folderOf).sort());
    expect((await manual(second, 99)).status).toBe(507);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(setup.plex.refreshes).toEqual([]);
    expect(errorLines(second)).toHaveLength(1);
    expect(second.logs()).toMatch(/started on a full disk/);

    setup.disk.free();
    await expect.poll(async () => (await health(second)).status, { timeout: 10_000, interval: 100 }).toBe(200);
    await setup.plex.waitForRefreshes(5, 10_000);
    expect(setup.plex.refreshes.map((r) => r.path).sort()).toEqual([0, 1, 2, 3, 4].map(folderOf).sort());
    expect((await manual(second, 100)).status).toBe(202);
    // Shared again: another program can read the database while serve runs.
    const reader = new Database(setup.paths.database, { readonly: true, fileMustExist: true, timeout: 1_000 });
    try {
      expect((reader.prepare("SELECT COUNT(*) AS n FROM scan_queue").get() as { n: number }).n).toBe(6);
    } finally {
      reader.close();
    }
    expect(path.basename(setup.paths.database)).toBe("scanarr.db");
  });
});
