import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import type { NotificationType } from "../../src/config/types.js";
import type { NotifyEvent } from "../../src/notify/events.js";
import { createNotifier, type Notifier } from "../../src/notify/notifier.js";
import { guessType } from "../../src/notify/settings.js";
import { NOTIFICATION_EVENTS } from "../../src/config/schema.js";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver.js";
import { recordingLogger } from "../helpers/log-lines.js";

const WEBHOOK_PATH = "/api/webhooks/123456/s3cr3t-webhook-token";
const PLEX_TOKEN = "plex-token-abcdef123456";

let receivers: WebhookReceiver[] = [];
let notifier: Notifier | undefined;
afterEach(async () => {
  await notifier?.stop();
  notifier = undefined;
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

async function setUp(options: { type?: NotificationType; maxAttempts?: number; events?: string[]; timeoutMs?: number } = {}) {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const clock = new ManualClock();
  const log = recordingLogger();
  notifier = createNotifier({
    channels: [
      {
        url: `${receiver.url}${WEBHOOK_PATH}`,
        type: options.type ?? "json",
        events: new Set((options.events ?? NOTIFICATION_EVENTS) as (typeof NOTIFICATION_EVENTS)[number][]),
      },
    ],
    secrets: [PLEX_TOKEN, WEBHOOK_PATH],
    clock,
    logger: log.logger,
    policy: options.maxAttempts ? { maxAttempts: options.maxAttempts } : {},
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { receiver, clock, log, notifier };
}

const failed = (clock: ManualClock, folder: string, error = "HTTP 400 from plex"): NotifyEvent => ({
  type: "scan-failed",
  at: clock.now(),
  folder,
  target: "plex",
  error,
});

describe("notifications to a webhook", () => {
  it("sends the failures of one minute as one JSON message with their count", async () => {
    const { receiver, clock, notifier } = await setUp();
    notifier.notify(failed(clock, "/data/TV/Lost"));
    clock.advance(20_000);
    notifier.notify(failed(clock, "/data/TV/Fringe"));
    clock.advance(30_000);
    notifier.notify(failed(clock, "/data/TV/Heroes"));
    clock.advance(9_999);
    await notifier.settled();
    expect(receiver.received).toHaveLength(0);
    clock.advance(1);
    const message = await receiver.message(1);
    expect(message.path).toBe(WEBHOOK_PATH);
    expect(message.contentType).toBe("application/json");
    const body = message.body as { source: string; counts: Record<string, number>; events: Array<Record<string, unknown>> };
    expect(body.source).toBe("scanarr");
    expect(body.counts).toEqual({ "scan-failed": 3 });
    expect(body.events.map((e) => e.folder)).toEqual(["/data/TV/Lost", "/data/TV/Fringe", "/data/TV/Heroes"]);
    expect(body.events[0]).toMatchObject({ type: "scan-failed", target: "plex", error: "HTTP 400 from plex" });
    expect(body.events[0]?.at).toBe(new Date(1_700_000_000_000).toISOString());
  });

  it("sends the next message no sooner than a minute after the last one", async () => {
    const { receiver, clock, notifier } = await setUp();
    notifier.notify(failed(clock, "/data/TV/Lost"));
    clock.advance(60_000);
    await receiver.message(1);
    await notifier.settled();
    notifier.notify(failed(clock, "/data/TV/Fringe"));
    notifier.notify(failed(clock, "/data/TV/Heroes"));
    clock.advance(59_999);
    await notifier.settled();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1);
    const second = (await receiver.message(2)).body as { counts: Record<string, number> };
    expect(second.counts).toEqual({ "scan-failed": 2 });
  });

  it("tries again after a 500, with backoff, and sends the same message", async () => {
    const { receiver, clock, notifier, log } = await setUp();
    receiver.answer({ status: 500, body: '{"error":"boom"}' });
    notifier.notify(failed(clock, "/data/TV/Lost"));
    clock.advance(60_000);
    const first = await receiver.message(1);
    await notifier.settled();
    clock.advance(9_999);
    await notifier.settled();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1);
    expect((await receiver.message(2)).body).toEqual(first.body);
    await notifier.settled();
    expect(log.at("warn")).toEqual([]);
  });

  it("waits as long as a 429's Retry-After says (Discord's header, then its body)", async () => {
    const { receiver, clock, notifier } = await setUp({ type: "discord" });
    receiver.answer(
      { status: 429, headers: { "retry-after": "3" }, body: '{"message":"You are being rate limited.","retry_after":3}' },
      { status: 429, body: '{"message":"You are being rate limited.","retry_after":1.5,"global":false}' },
    );
    notifier.notify(failed(clock, "/data/TV/Lost"));
    clock.advance(60_000);
    await receiver.message(1);
    await notifier.settled();
    clock.advance(2_999);
    await notifier.settled();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1);
    await receiver.message(2);
    await notifier.settled();
    clock.advance(1_499);
    await notifier.settled();
    expect(receiver.received).toHaveLength(2);
    clock.advance(1);
    await receiver.message(3);
  });

  it("tries again when the receiver refuses connections or does not answer in time", async () => {
    const { receiver, clock, notifier, log } = await setUp({ timeoutMs: 200 });
    await receiver.setAvailability("refuse");
    notifier.notify(failed(clock, "/data/TV/Lost"));
    clock.advance(60_000);
    await notifier.settled();
    await receiver.setAvailability("hang");
    clock.advance(10_000);
    await notifier.settled();
    await receiver.setAvailability("up");
    clock.advance(30_000);
    expect(((await receiver.message(1)).body as { counts: unknown }).counts).toEqual({ "scan-failed": 1 });
    const reasons = log.lines.filter((l) => l.msg === "notification not accepted; trying again").map((l) => l.fields.reason);
    expect(reasons).toEqual(["network error: ECONNREFUSED", "no answer within 0.2 s"]);
  });

  it("drops a message after the last attempt with a warning naming only the host", async () => {
    const { receiver, clock, notifier, log } = await setUp({ maxAttempts: 3 });
    receiver.answer({ status: 503 }, { status: 502 }, { status: 500 });
    notifier.notify(failed(clock, "/data/TV/Lost"));
    clock.advance(60_000);
    await receiver.message(1);
    await notifier.settled();
    clock.advance(10_000);
    await receiver.message(2);
    await notifier.settled();
    clock.advance(30_000);
    await receiver.message(3);
    await notifier.settled();
    expect(log.lines.filter((l) => l.level === "warn").map((l) => l.fields)).toEqual([
      { host: new URL(receiver.url).host, reason: "HTTP 500", attempts: 3, events: 1 },
    ]);
    expect(log.lines.map((l) => l.raw).join("")).not.toContain("s3cr3t-webhook-token");
    // The channel carries on: the next event makes a new message a minute later.
    notifier.notify(failed(clock, "/data/TV/Fringe"));
    clock.advance(60_000);
    expect(((await receiver.message(4)).body as { counts: unknown }).counts).toEqual({ "scan-failed": 1 });
  });

  it("drops at once what the receiver refuses for good (404: a deleted webhook)", async () => {
    const { receiver, clock, notifier, log } = await setUp();
    receiver.answer({ status: 404, body: '{"message":"Unknown Webhook","code":10015}' });
    notifier.notify(failed(clock, "/data/TV/Lost"));
    clock.advance(60_000);
    await receiver.message(1);
    await notifier.settled();
    expect(log.at("warn")).toEqual(["notification dropped: the receiver did not accept it"]);
    clock.advance(60 * 60_000);
    await notifier.settled();
    expect(receiver.received).toHaveLength(1);
  });

  it("never carries a token or a URL's credentials, whatever the error said", async () => {
    const { receiver, clock, notifier } = await setUp({ type: "discord" });
    notifier.notify(
      failed(clock, "/data/TV/Lost", `GET http://user:pw@plex.lan:32400/library/sections?X-Plex-Token=${PLEX_TOKEN} answered 500`),
    );
    notifier.notify({ type: "drive-failing", at: clock.now(), problem: `token ${PLEX_TOKEN} refused` });
    clock.advance(60_000);
    const text = JSON.stringify((await receiver.message(1)).body);
    expect(text).not.toContain(PLEX_TOKEN);
    expect(text).not.toContain("pw@");
    expect(text).toContain("http://plex.lan:32400/library/sections");
  });

  it("formats a Discord message with counts, no mentions, within 2,000 characters", async () => {
    const { receiver, clock, notifier } = await setUp({ type: "discord" });
    for (let i = 0; i < 500; i++) notifier.notify(failed(clock, `/data/TV/Show ${i} ${"x".repeat(80)}`));
    notifier.notify({
      type: "target-down",
      at: clock.now(),
      target: "plex",
      state: "unavailable",
      since: clock.now() - 600_000,
      failures: 7,
    });
    notifier.notify({ type: "anchors-missing", at: clock.now(), missing: [{ path: "/mnt/unionfs/.anchor", reason: "does not exist" }] });
    clock.advance(60_000);
    const body = (await receiver.message(1)).body as { content: string; username: string; allowed_mentions: unknown };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.username).toBe("scanarr");
    expect(body.content.length).toBeLessThanOrEqual(2_000);
    const lines = body.content.split("\n");
    expect(lines[0]).toMatch(/^\*\*500 scans failed\*\*: `\/data\/TV\/Show 0 x+` on plex \(HTTP 400 from plex\);/);
    expect(lines[0]).toMatch(/; and 495 more$/);
    expect(body.content).toContain("**Target plex is down** (unavailable) since <t:1699999400:R>; 7 failed attempts in a row");
    expect(body.content).toContain("**Anchors missing**, scans are held: `/mnt/unionfs/.anchor` (does not exist)");
  });

  it("sends an entry only the events it asked for", async () => {
    const everything = await setUp();
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const clock = new ManualClock();
    const only = createNotifier({
      channels: [
        { url: everything.receiver.url, type: "json", events: new Set(NOTIFICATION_EVENTS) },
        { url: receiver.url, type: "json", events: new Set(["target-down"] as const) },
      ],
      secrets: [],
      clock,
      logger: everything.log.logger,
    });
    try {
      only.notify(failed(clock, "/data/TV/Lost"));
      only.notify({ type: "target-up", at: clock.now(), target: "plex", since: clock.now() - 1 });
      clock.advance(60_000);
      expect(((await everything.receiver.message(1)).body as { counts: unknown }).counts).toEqual({ "scan-failed": 1, "target-up": 1 });
      expect(((await receiver.message(1)).body as { counts: unknown }).counts).toEqual({ "target-up": 1 });
    } finally {
      await only.stop();
    }
  });
});

describe("the kind of a NOTIFICATIONS entry", () => {
  it("is discord for a Discord webhook URL and json for anything else", () => {
    expect(guessType("https://discord.com/api/webhooks/1/abc")).toBe("discord");
    expect(guessType("https://discordapp.com/api/webhooks/1/abc")).toBe("discord");
    expect(guessType("https://discord.com/channels/1/2")).toBe("json");
    expect(guessType("https://hooks.example.com/scanarr")).toBe("json");
  });
});
