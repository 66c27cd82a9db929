import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import type { FakeEmby } from "../fakes/emby.js";
import type { FakeJellyfin } from "../fakes/jellyfin.js";
import { scannedPaths, startOtherServers } from "../fakes/other-servers.js";
import { deliveriesSettled, postForm, postJson, startTestService, waitFor, type TestService } from "../helpers/service.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

interface Setup {
  t: TestService;
  jellyfin: FakeJellyfin;
  emby: FakeEmby;
  clock: ManualClock;
}

/**
 * Plex sees /data/TV; Jellyfin (in its container) /media/TV; Emby /mnt/tv.
 * Sonarr writes /tv (SERVER_PATH_MAPPINGS: /tv → /data/TV).
 */
async function threeServers(timeoutMs = 30_000): Promise<Setup> {
  const { jellyfin, emby, targets, close } = await startOtherServers(SEASONS);
  cleanups.push(close);
  const clock = new ManualClock(Date.now());
  const t = await startTestService({ TARGETS: targets }, { clock, targetTimeoutMs: timeoutMs });
  cleanups.push(() => t.stop());
  return { t, jellyfin, emby, clock };
}

/** The servers hold these seasons: a scan of one refreshes its folder's item (other-servers.ts). */
const SEASONS = ["Severance/Season 1", "Andor/Season 2", "A/Season 1", "B/Season 1", "C/Season 1", "Hang/Season 1"];
const updatedPaths = scannedPaths;
const calls = (server: FakeJellyfin | FakeEmby) => scannedPaths(server).length;

async function settle(s: Setup, rounds = 1): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    s.clock.advance(11 * 60_000);
    await deliveriesSettled(s.t);
  }
}

describe("several media servers", () => {
  it("delivers every scan to each server in its own path form, as the refresh of the folder's item", async () => {
    const s = await threeServers();
    const file = "/tv/Severance/Season 1/Severance - S01E01.mkv";
    expect((await postForm(s.t.base, { eventType: "Manual", filepath: file })).status).toBe(202);
    expect((await postForm(s.t.base, { eventType: "Manual", filepath: "/tv/Andor/Season 2/" })).status).toBe(202);
    await settle(s);
    await waitFor(() => s.t.plex.refreshes.length >= 2 && calls(s.jellyfin) >= 2 && calls(s.emby) >= 2);
    expect(s.t.plex.refreshes.map((r) => r.path).sort()).toEqual(["/data/TV/Andor/Season 2", "/data/TV/Severance/Season 1"]);
    expect(updatedPaths(s.jellyfin).sort()).toEqual(["/media/TV/Andor/Season 2", "/media/TV/Severance/Season 1"]);
    expect(updatedPaths(s.emby).sort()).toEqual(["/mnt/tv/Andor/Season 2", "/mnt/tv/Severance/Season 1"]);
    const queue = (await (await fetch(`${s.t.base}/api/queue`)).json()) as { pending: unknown[] };
    expect(queue.pending).toEqual([]);
  });

  it("keeps a server that is down from blocking the others, and sends it each folder once when it is back", async () => {
    const s = await threeServers();
    await s.jellyfin.setAvailability("down");
    const folders = ["/tv/A/Season 1/", "/tv/B/Season 1/", "/tv/C/Season 1/"];
    for (const filepath of folders) expect((await postForm(s.t.base, { eventType: "Manual", filepath })).status).toBe(202);
    await settle(s, 3);
    await waitFor(() => s.t.plex.refreshes.length >= 3 && calls(s.emby) >= 3);
    expect(updatedPaths(s.jellyfin)).toEqual([]);
    const health = (await (await fetch(`${s.t.origin}/health`)).json()) as { status: string; targets: Record<string, { state: string }> };
    expect(health.status).toBe("degraded");
    expect(health.targets.jellyfin?.state).toBe("unavailable");
    expect(health.targets.plex?.state).toBe("ok");

    await s.jellyfin.setAvailability("up");
    for (let i = 0; i < 10 && calls(s.jellyfin) < 3; i++) await settle(s);
    await waitFor(() => calls(s.jellyfin) >= 3);
    await settle(s, 2);
    expect(updatedPaths(s.jellyfin).sort()).toEqual(["/media/TV/A/Season 1", "/media/TV/B/Season 1", "/media/TV/C/Season 1"]);
    expect(s.t.plex.refreshes).toHaveLength(3);
    expect(updatedPaths(s.emby)).toHaveLength(3);
  });

  it("times out a server that hangs and retries it, without holding the others", async () => {
    const s = await threeServers(300);
    await s.emby.setAvailability("hang");
    expect((await postForm(s.t.base, { eventType: "Manual", filepath: "/tv/Hang/Season 1/" })).status).toBe(202);
    await settle(s);
    await waitFor(() => s.t.plex.refreshes.length >= 1 && calls(s.jellyfin) >= 1);
    await expect
      .poll(async () => {
        const queue = (await (await fetch(`${s.t.base}/api/queue`)).json()) as {
          pending: Array<{ deliveries: Array<{ target: string; attempts: number; lastError: string | null }> }>;
        };
        return queue.pending[0]?.deliveries.find((d) => d.target === "emby");
      })
      .toMatchObject({ attempts: 1, lastError: expect.stringMatching(/did not answer within 300 ms/) });
    await s.emby.setAvailability("up");
    for (let i = 0; i < 10 && calls(s.emby) < 1; i++) await settle(s);
    await waitFor(() => calls(s.emby) >= 1);
    expect(updatedPaths(s.emby)).toEqual(["/mnt/tv/Hang/Season 1"]);
    expect(s.t.plex.refreshes).toHaveLength(1);
  });

  it("refuses with 422 only a folder that no server has a library for", async () => {
    const s = await threeServers();
    await expect.poll(async () => (await fetch(`${s.t.origin}/health`)).status).toBe(200);
    const answer = await postJson(s.t.base, { eventType: "Manual", filepath: "/elsewhere/Thing/" });
    expect(answer.status).toBe(422);
  });
});
