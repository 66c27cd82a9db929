import { afterEach, describe, expect, it } from "vitest";
import { ARR_KIND_INFO, ArrTestFailedError, connectArr, listArrConnections, recogniseArr, type ArrApp } from "../../src/arr/index.js";
import { startFakeArr, type FakeArr, type FakeArrKind } from "../fakes/arr.js";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver.js";

const PASS = "0123456789abcdef0123456789abcdef";
const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((server) => server.close()));
});

async function setUp(kind: FakeArrKind): Promise<{ fake: FakeArr; app: ArrApp; receiver: WebhookReceiver; webhookUrl: string }> {
  const fake = await startFakeArr({ kind });
  const receiver = await startWebhookReceiver();
  closing.push(fake, receiver);
  const app = await recogniseArr(fake.url, fake.apiKey);
  return { fake, app, receiver, webhookUrl: `${receiver.url}/${PASS}` };
}

const FILE_EVENTS: Record<FakeArrKind, string[]> = {
  sonarr: ["onDownload", "onUpgrade", "onRename", "onSeriesDelete", "onEpisodeFileDelete", "onEpisodeFileDeleteForUpgrade"],
  radarr: ["onDownload", "onUpgrade", "onRename", "onMovieDelete", "onMovieFileDelete", "onMovieFileDeleteForUpgrade"],
  lidarr: ["onReleaseImport", "onUpgrade", "onRename", "onArtistDelete", "onAlbumDelete", "onTrackRetag"],
  readarr: [
    "onReleaseImport",
    "onUpgrade",
    "onRename",
    "onAuthorDelete",
    "onBookDelete",
    "onBookFileDelete",
    "onBookFileDeleteForUpgrade",
    "onBookRetag",
  ],
};

describe("connectArr", () => {
  it.each(["sonarr", "radarr", "lidarr", "readarr"] as const)(
    "creates one %s Webhook connection with exactly the file-changing events ticked, proved by the app's test",
    async (kind) => {
      const { fake, app, receiver, webhookUrl } = await setUp(kind);
      const result = await connectArr(app, { webhookUrl, test: true });
      expect(result).toEqual({ action: "created", id: 1, events: FILE_EVENTS[kind], tested: true });
      expect(ARR_KIND_INFO[kind].fileEvents).toEqual(FILE_EVENTS[kind]);
      expect(fake.notifications).toHaveLength(1);
      const saved = fake.notifications[0] as Record<string, unknown>;
      expect(saved).toMatchObject({ name: "scanarr", implementation: "Webhook", configContract: "WebhookSettings", tags: [] });
      expect(saved.fields).toEqual(
        expect.arrayContaining([{ order: 0, name: "url", label: "Webhook URL", type: "url", value: webhookUrl }]),
      );
      const ticked = Object.keys(saved).filter((k) => /^on[A-Z]/.test(k) && saved[k] === true);
      expect(ticked.sort()).toEqual([...FILE_EVENTS[kind]].sort());
      expect(fake.requests).toContain(`POST /api/v${kind === "sonarr" || kind === "radarr" ? "3" : "1"}/notification`);
      const test = await receiver.message(1);
      expect(test.path).toBe(`/${PASS}`);
      expect(test.body).toMatchObject({ eventType: "Test" });
    },
  );

  it("says unchanged on a second run and adds no second connection; the test runs again", async () => {
    const { fake, app, receiver, webhookUrl } = await setUp("sonarr");
    await connectArr(app, { webhookUrl, test: true });
    const again = await connectArr(app, { webhookUrl, test: true });
    expect(again).toMatchObject({ action: "unchanged", id: 1, tested: true });
    expect(fake.notifications).toHaveLength(1);
    expect(fake.requests.filter((r) => r.startsWith("PUT") || r === "POST /api/v3/notification")).toHaveLength(1);
    expect(fake.requests).toContain("POST /api/v3/notification/test");
    expect(receiver.received).toHaveLength(2);
  });

  it("updates the connection in place when the events or the host changed, keeping the user's own settings", async () => {
    const { fake, app, webhookUrl } = await setUp("radarr");
    await connectArr(app, { webhookUrl, test: true });
    const stored = fake.notifications[0] as Record<string, unknown>;
    Object.assign(stored, { onGrab: true, onRename: false, tags: [3] });
    const renamedHost = webhookUrl.replace("127.0.0.1", "localhost");
    const result = await connectArr(app, { webhookUrl: renamedHost, test: true });
    expect(result).toMatchObject({ action: "updated", id: 1, events: FILE_EVENTS.radarr });
    expect(fake.notifications).toHaveLength(1);
    expect(fake.notifications[0]).toMatchObject({ onGrab: false, onRename: true, tags: [3] });
    expect(fake.requests).toContain("PUT /api/v3/notification/1");
  });

  it("finds its connection by the name scanarr when the pass changed", async () => {
    const { fake, app, webhookUrl } = await setUp("lidarr");
    await connectArr(app, { webhookUrl, test: false });
    const result = await connectArr(app, { webhookUrl: webhookUrl.replace(PASS, "another-pass-0123456789"), test: false });
    expect(result.action).toBe("updated");
    expect(fake.notifications).toHaveLength(1);
  });

  it("surfaces the app's 400 reasons when its test of the URL fails, saves nothing and shows no pass", async () => {
    const { fake, app, receiver, webhookUrl } = await setUp("sonarr");
    receiver.answer({ status: 401 });
    const error = (await connectArr(app, { webhookUrl, test: true }).catch((e: unknown) => e)) as ArrTestFailedError;
    expect(error).toBeInstanceOf(ArrTestFailedError);
    expect(error.reasons).toEqual([expect.stringMatching(/^Url: Unable to send test message: HTTP request failed: \[401\]/)]);
    expect(error.message).toContain(`Sonarr at ${app.url} refused to add the connection: Url: Unable to send test message`);
    expect(`${error.message} ${error.reasons.join(" ")}`).not.toContain(PASS);
    expect(fake.notifications).toHaveLength(0);
  });

  it("saves without the test (forceSave) when told scanarr is not running, and says so", async () => {
    const { fake, app, receiver, webhookUrl } = await setUp("readarr");
    await receiver.close();
    const result = await connectArr(app, { webhookUrl, test: false });
    expect(result).toMatchObject({ action: "created", tested: false, events: FILE_EVENTS.readarr });
    expect(result.note).toContain("saved without the app's test");
    expect(fake.requests).toContain("POST /api/v1/notification?forceSave=true");
    expect(fake.deliveries).toEqual([]);
    // Readarr's Webhook has no headers field; nothing added one.
    expect(JSON.stringify(fake.notifications[0])).not.toContain("headers");
  });
});

describe("connectArr with connections made by hand", () => {
  it("updates the first connection to scanarr, names the others, and never touches another program's webhook", async () => {
    const { fake, app, webhookUrl } = await setUp("sonarr");
    const other = `http://127.0.0.1:1/notifiarr`;
    const byHand = (id: number, name: string, url: string) => ({
      id,
      name,
      implementation: "Webhook",
      configContract: "WebhookSettings",
      tags: [],
      onGrab: true,
      fields: [
        { name: "url", value: url },
        { name: "method", value: 1 },
      ],
    });
    fake.notifications.push(byHand(7, "other tool", other), byHand(8, "Scanarr (old)", webhookUrl), byHand(9, "copy", webhookUrl));
    const result = await connectArr(app, { webhookUrl, test: false });
    expect(result).toMatchObject({ action: "updated", id: 8 });
    expect(result.note).toContain("1 other connection(s) also point at scanarr (id 9)");
    expect(fake.notifications.map((n) => n.name)).toEqual(["other tool", "scanarr", "copy"]);
    expect(fake.notifications[0]).toMatchObject({ onGrab: true });
  });

  it("leaves out an event this version of the app lacks, and says so", async () => {
    const fake = await startFakeArr({ kind: "sonarr", unsupported: ["onEpisodeFileDeleteForUpgrade"] });
    closing.push(fake);
    const app = await recogniseArr(fake.url, fake.apiKey);
    const result = await connectArr(app, { webhookUrl: `http://127.0.0.1:1/${PASS}`, test: false });
    expect(result.events).toEqual(FILE_EVENTS.sonarr.filter((flag) => flag !== "onEpisodeFileDeleteForUpgrade"));
    expect(result.note).toContain("this Sonarr has no onEpisodeFileDeleteForUpgrade event; left out");
    expect(fake.notifications[0]).toMatchObject({ onEpisodeFileDeleteForUpgrade: false });
  });

  it("creates a new connection after the user deleted it in the app", async () => {
    const { fake, app, webhookUrl } = await setUp("radarr");
    const first = await connectArr(app, { webhookUrl, test: false });
    const deleted = await fetch(`${fake.url}/api/v3/notification/${first.id}`, { method: "DELETE", headers: { "X-Api-Key": fake.apiKey } });
    expect(deleted.status).toBe(200);
    expect(fake.notifications).toEqual([]);
    expect(await connectArr(app, { webhookUrl, test: false })).toMatchObject({ action: "created", id: 2 });
  });
});

describe("listArrConnections", () => {
  it("lists the connections that point at this scanarr with their events, the missing ones and the extra ones", async () => {
    const { fake, app, webhookUrl } = await setUp("sonarr");
    await connectArr(app, { webhookUrl, test: false });
    Object.assign(fake.notifications[0] as Record<string, unknown>, { onGrab: true, onRename: false });
    const listed = await listArrConnections(app, webhookUrl.replace("127.0.0.1", "scanarr"));
    expect(listed).toEqual([
      {
        id: 1,
        name: "scanarr",
        url: webhookUrl,
        events: ["onGrab", "onDownload", "onUpgrade", "onSeriesDelete", "onEpisodeFileDelete", "onEpisodeFileDeleteForUpgrade"],
        missing: ["onRename"],
        extra: ["onGrab"],
      },
    ]);
    expect(await listArrConnections(app, "http://127.0.0.1:1/another-pass")).toEqual([]);
  });
});

describe("the fake apps' Download webhook", () => {
  it.each(["sonarr", "radarr", "lidarr", "readarr"] as const)(
    "%s sends a Download in its own shape to the connection it holds",
    async (kind) => {
      const { fake, app, receiver, webhookUrl } = await setUp(kind);
      await connectArr(app, { webhookUrl, test: false });
      const [delivery] = await fake.sendDownload(0, "file.mkv");
      expect(delivery).toMatchObject({ url: webhookUrl, eventType: "Download", status: 204 });
      const { body } = await receiver.message(1);
      const folderKey = { sonarr: "series", radarr: "movie", lidarr: "artist", readarr: "author" }[kind];
      expect(body).toMatchObject({ eventType: "Download", [folderKey]: { id: 1 } });
      expect(JSON.stringify(body)).toContain("/file.mkv");
    },
  );
});
