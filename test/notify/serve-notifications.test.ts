import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { deliveriesSettled, postJson, startTestService, storedScans, TEST_PASS, waitFor, type TestService } from "../helpers/service.js";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver.js";

let t: TestService | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await t?.stop();
  await receiver?.close();
  t = undefined;
  receiver = undefined;
});

const sonarr = (show: string) => ({ eventType: "Download", series: { path: `/tv/${show}` }, episodeFile: { relativePath: "e.mkv" } });

describe("notifications from scanarr serve", () => {
  it("tells a Discord-style receiver of scans Plex refused, in one message with the count", async () => {
    receiver = await startWebhookReceiver();
    const clock = new ManualClock(Date.now());
    t = await startTestService({ NOTIFICATIONS: [{ URL: `${receiver.url}/api/webhooks/1/hook-token-xyz`, TYPE: "discord" }] }, { clock });
    t.plex.setMode(400, "refresh");
    for (const show of ["Lost", "Fringe"]) expect((await postJson(t.base, sonarr(show))).status).toBe(202);
    clock.advance(0);
    await waitFor(() => storedScans(t as TestService).every((s) => s.state === "failed"), 5_000, "both scans to fail");
    await deliveriesSettled(t);
    clock.advance(60_000);
    const message = await receiver.message(1);
    expect(message.path).toBe("/api/webhooks/1/hook-token-xyz");
    const { content } = message.body as { content: string };
    expect(content).toMatch(
      /^\*\*2 scans failed\*\*: `\/data\/TV\/(Lost|Fringe)` on plex \(TargetFatalError: Plex at http:\/\/127\.0\.0\.1:\d+ answered 400 /,
    );
    expect(content).toContain("/data/TV/Lost");
    expect(content).toContain("/data/TV/Fringe");
    for (const secret of [TEST_PASS, t.plex.token]) expect(content).not.toContain(secret);
    expect(t.logs()).not.toContain("hook-token-xyz");
  });

  it("tells a JSON receiver of a target down for longer than NOTIFY_TARGET_DOWN_MINUTES", async () => {
    receiver = await startWebhookReceiver();
    const clock = new ManualClock(Date.now());
    t = await startTestService(
      { NOTIFICATIONS: [{ URL: `${receiver.url}/scanarr`, EVENTS: ["target-down"] }], NOTIFY_TARGET_DOWN_MINUTES: 5 },
      { clock },
    );
    t.plex.setMode(503);
    expect((await postJson(t.base, sonarr("Lost"))).status).toBe(202);
    clock.advance(0);
    await deliveriesSettled(t);
    await waitFor(() => t?.logs().includes("target plex is unavailable") === true, 5_000, "plex to be seen unavailable");
    for (let minute = 0; minute < 7; minute++) {
      clock.advance(60_000);
      await deliveriesSettled(t);
    }
    const body = (await receiver.message(1)).body as { counts: unknown; events: Array<Record<string, unknown>> };
    expect(body.counts).toEqual({ "target-down": 1 });
    expect(body.events[0]).toMatchObject({ type: "target-down", target: "plex", state: "unavailable" });
    expect(String(body.events[0]?.since)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
