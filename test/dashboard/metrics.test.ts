import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { parseExposition, value } from "../helpers/prometheus.js";
import { postForm, postJson, startTestService, TEST_PASS, type TestService } from "../helpers/service.js";
import { pendingOf, type ScanCounts } from "../../src/queue/views/scan-counts.js";

describe("GET /metrics", () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it("is off by default", async () => {
    t = await startTestService();
    expect((await fetch(`${t.origin}/metrics`)).status).toBe(404);
  });

  it("counts what was sent, in the strict text format, with no secret anywhere", async () => {
    t = await startTestService({ METRICS: { ENABLED: true } });
    const sonarr = (f: string) => ({ eventType: "Download", series: { path: `/tv/${f}` }, episodeFile: { relativePath: "e.mkv" } });
    for (const f of ["Lost", "Fringe", "Heroes"]) expect((await postJson(t.base, sonarr(f))).status).toBe(202);
    expect((await postJson(t.base, { eventType: "Test" })).status).toBe(200);
    expect((await postForm(t.base, { eventType: "Manual", filepath: "/tv/../etc" })).status).toBe(400);
    // autoscan's manual trigger counts like a webhook.
    expect((await fetch(`${t.base}/triggers/manual?dir=${encodeURIComponent("/tv/Alias")}`, { method: "POST" })).status).toBe(200);
    await t.plex.waitForRefreshes(4);
    const res = await fetch(`${t.origin}/metrics`);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    const { samples, types } = parseExposition(text);
    expect(types.get("scanarr_requests_total")).toBe("counter");
    expect(value(samples, "scanarr_requests_total", { source: "sonarr", outcome: "queued" })).toBe(3);
    expect(value(samples, "scanarr_requests_total", { outcome: "refused" })).toBe(1);
    expect(value(samples, "scanarr_requests_total", { source: "manual", outcome: "queued" })).toBe(1);
    await expect
      .poll(async () =>
        value(parseExposition(await (await fetch(`${t?.origin}/metrics`)).text()).samples, "scanarr_deliveries_total", {
          target: "plex",
          outcome: "delivered",
        }),
      )
      .toBe(4);
    const after = parseExposition(await (await fetch(`${t.origin}/metrics`)).text()).samples;
    expect(value(after, "scanarr_request_to_delivered_seconds_count", { target: "plex" })).toBe(4);
    expect(value(after, "scanarr_delivery_duration_seconds_bucket", { target: "plex", le: "+Inf" })).toBe(4);
    expect(value(after, "scanarr_queue_scans", { state: "done" })).toBe(4);
    expect(value(after, "scanarr_target_up", { target: "plex" })).toBe(1);
    for (const secret of [TEST_PASS, t.plex.token]) expect(text).not.toContain(secret);
    const page = await (await fetch(t.base)).text();
    expect(page).not.toContain(t.plex.token);
  });
});

describe("anchor gauges", () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it("shows each configured anchor up or down and how many are missing", async () => {
    const dir = tempDir();
    const present = join(dir, "mounted.bin");
    writeFileSync(present, "x");
    const missing = join(dir, "other mount", ".anchor");
    t = await startTestService(
      { METRICS: { ENABLED: true }, ANCHORS: [present], PLEX_EMPTY_TRASH_CONTROL_FILES: [missing] },
      { anchorPollMs: 100 },
    );
    const scrape = async () => parseExposition(await (await fetch(`${t?.origin}/metrics`)).text());
    await expect.poll(async () => value((await scrape()).samples, "scanarr_anchors_missing", {})).toBe(1);
    const { samples, types } = await scrape();
    expect(types.get("scanarr_anchor_up")).toBe("gauge");
    expect(samples.filter((s) => s.name === "scanarr_anchor_up")).toEqual([
      { name: "scanarr_anchor_up", labels: { anchor: present }, value: 1 },
      { name: "scanarr_anchor_up", labels: { anchor: missing }, value: 0 },
    ]);
    mkdirSync(dirname(missing), { recursive: true });
    writeFileSync(missing, "x");
    await expect.poll(async () => value((await scrape()).samples, "scanarr_anchors_missing", {})).toBe(0);
    expect(value((await scrape()).samples, "scanarr_anchor_up", { anchor: missing })).toBe(1);
  });

  it("are left out when no anchor is configured", async () => {
    t = await startTestService({ METRICS: { ENABLED: true } });
    const { types } = parseExposition(await (await fetch(`${t.origin}/metrics`)).text());
    expect(types.has("scanarr_anchor_up")).toBe(false);
    expect(types.has("scanarr_anchors_missing")).toBe(false);
  });
});

describe("dashboard actions and CSRF", () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it("refuses a cross-site form POST to an action and changes nothing", async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 600 });
    await postJson(t.base, { eventType: "Download", series: { path: "/tv/Lost" }, episodeFile: { relativePath: "e.mkv" } });
    const queue = (await (await fetch(`${t.base}/api/queue`)).json()) as { pendingPage: Array<{ id: number; dueAtIso: string }> };
    const id = String(queue.pendingPage[0]?.id);
    expect(queue.pendingPage[0]?.dueAtIso).toMatch(/Z$/);
    // Every epoch time in the answer, at any depth (pending[], origins[], deliveries[]), has its ISO 8601 twin.
    const untwinned: string[] = [];
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${where}[${i}]`));
      if (value === null || typeof value !== "object") return;
      const fields = value as Record<string, unknown>;
      for (const [key, field] of Object.entries(fields)) {
        if (/At$|^since$/.test(key) && typeof field === "number" && typeof fields[`${key}Iso`] !== "string")
          untwinned.push(`${where}.${key}`);
        walk(field, `${where}.${key}`);
      }
    };
    walk(queue, "queue");
    expect(untwinned).toEqual([]);
    const crossSite = await postForm(
      `${t.base}/actions/cancel`,
      { id },
      { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    const fromOrigin = await postForm(`${t.base}/actions/cancel`, { id }, { origin: "https://evil.example" });
    expect(fromOrigin.status).toBe(403);
    const after = (await (await fetch(`${t.base}/api/queue`)).json()) as { counts: ScanCounts };
    expect(pendingOf(after.counts)).toBe(1);
    const ok = await postJson(`${t.base}/actions/cancel`, { id: Number(id) });
    expect(ok).toMatchObject({ status: 200, body: { action: "cancel", state: "cancelled" } });
  });
});
