import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { deliveriesSettled, postForm, startTestService, waitFor, type TestService } from "../helpers/service.js";

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

interface QueueAnswer {
  pending: Array<{ folder: string; deliveries: Array<{ attempts: number; lastError: string | null }> }>;
  failed: unknown[];
}

describe("a media server outage", () => {
  it("keeps every scan while Plex answers 503 and delivers each folder once when it recovers", async () => {
    const clock = new ManualClock(Date.now());
    t = await startTestService({}, { clock });
    const folders = Array.from({ length: 20 }, (_, i) => `/tv/Show ${i}/Season 1`);
    await clock.advance(0);
    await waitFor(() => t!.service !== undefined);
    t.plex.setMode(503);
    for (const f of folders) expect((await postForm(t.base, { eventType: "Manual", filepath: `${f}/` })).status).toBe(202);

    // Each round fires the due deliveries (instantly, on the injected clock) and waits until they failed.
    for (let round = 0; round < 4; round++) {
      clock.advance(11 * 60_000);
      await deliveriesSettled(t);
    }
    const during = (await (await fetch(`${t.base}/api/queue`)).json()) as QueueAnswer;
    expect(during.pending).toHaveLength(20);
    expect(during.failed).toHaveLength(0);
    // The target is held between probes (a circuit breaker), so the dead server sees a few attempts, not 20 per round.
    const attempted = during.pending.filter((s) => (s.deliveries[0]?.attempts ?? 0) >= 1);
    expect(attempted.length).toBeGreaterThan(0);
    expect(attempted.every((s) => /503/.test(s.deliveries[0]?.lastError ?? ""))).toBe(true);
    expect(t.plex.refreshes).toHaveLength(0);
    const health = (await (await fetch(`${t.origin}/health`)).json()) as { targets: { plex: { state: string } } };
    expect(health.targets.plex.state).toBe("unavailable");

    t.plex.setMode("ok");
    for (let i = 0; i < 20 && t.plex.refreshes.length < 20; i++) {
      clock.advance(11 * 60_000);
      await deliveriesSettled(t);
    }
    await waitFor(() => t!.plex.refreshes.length >= 20, 5_000, "20 refreshes");
    const reached = t.plex.refreshes.map((r) => r.path).sort();
    expect(reached).toEqual(folders.map((f) => f.replace("/tv/", "/data/TV/")).sort());
    const after = (await (await fetch(`${t.base}/api/queue`)).json()) as QueueAnswer;
    expect(after.pending).toHaveLength(0);
  });

  it("delivers every held scan within 15 s of Plex's return after 60 s of 503 (4 calls in flight)", async () => {
    const clock = new ManualClock(Date.now());
    t = await startTestService({ SERVER_DELIVERY_CONCURRENCY: 4 }, { clock });
    t.plex.setMode(503);
    for (let i = 0; i < 20; i++)
      expect((await postForm(t.base, { eventType: "Manual", filepath: `/tv/Show ${i}/Season 1/` })).status).toBe(202);
    const step = async () => {
      clock.advance(1_000);
      await deliveriesSettled(t!);
    };
    for (let s = 0; s < 60; s++) await step();
    expect(t.plex.refreshes).toHaveLength(0);
    t.plex.setMode("ok");
    let waited = 0;
    for (; waited < 60 && t.plex.refreshes.length < 20; waited++) await step();
    await waitFor(() => t!.plex.refreshes.length >= 20, 5_000, "20 refreshes");
    // Probes go out at most 15 s apart in the first minutes of an outage (the issue saw 260-580 s here).
    expect(waited).toBeLessThanOrEqual(16);
  });
});
