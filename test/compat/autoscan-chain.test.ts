import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/auth/password-hash.js";
import { parseExposition, value } from "../helpers/prometheus.js";
import { startTestService, type TestService } from "../helpers/service.js";

/**
 * An autoscan whose target is scanarr sends `HEAD /triggers/manual`, then one
 * `POST /triggers/manual?dir=<folder>` per folder (spaces as `+`, a Radarr
 * Grab as an empty `dir=`). Its client stops for good on any answer but 2xx,
 * 401, 404 and 5xx (docs/compat.md), so every answer here must be one of them.
 */
describe("an autoscan in front of scanarr", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ METRICS: { ENABLED: true } });
  });
  afterAll(async () => t?.stop());

  const forward = (query: string) => fetch(`${t.base}/triggers/manual?${query}`, { method: "POST" });

  it("keeps going after a Grab's empty dir and a folder in no library: both 200, shown as dropped, counted", async () => {
    expect((await fetch(`${t.base}/triggers/manual`, { method: "HEAD" })).status).toBe(200);

    const grab = await forward("dir=");
    expect(grab.status).toBe(200);
    expect(await grab.json()).toMatchObject({ status: "ignored", trigger: "manual", source: "manual" });

    const elsewhere = await forward("dir=/elsewhere/Show/Season+01");
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.json()).toMatchObject({ status: "unmatched", queued: [], unmatched: ["/elsewhere/Show/Season 01"] });

    const imported = await forward("dir=/tv/Show/Season+01");
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ status: "queued", queued: ["/data/TV/Show/Season 01"] });
    await t.plex.waitForRefreshes(1);
    expect(t.plex.refreshes.map((r) => r.path)).toEqual(["/data/TV/Show/Season 01"]);

    const { samples } = parseExposition(await (await fetch(`${t.origin}/metrics`)).text());
    expect(value(samples, "scanarr_requests_total", { source: "manual", outcome: "ignored" })).toBe(1);
    expect(value(samples, "scanarr_requests_total", { source: "manual", outcome: "unmatched" })).toBe(1);
    expect(value(samples, "scanarr_requests_total", { source: "manual", outcome: "queued" })).toBe(1);
    expect(t.logs()).toMatch(/"msg":"no library of the media server holds \/elsewhere\/Show\/Season 01/);
  });

  it("still answers 400 when no dir is given at all, as autoscan does", async () => {
    expect((await fetch(`${t.base}/triggers/manual`, { method: "POST" })).status).toBe(400);
  });
});

describe("too many failed logins on /triggers", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ SERVER_USERNAME: "autoscan", SERVER_PASSWORD_HASH: await hashPassword("correct horse") });
  });
  afterAll(async () => t?.stop());

  it("answers 503 with Retry-After, not 429 (which would stop autoscan's processor for good)", async () => {
    const wrong = { authorization: `Basic ${Buffer.from("autoscan:wrong").toString("base64")}` };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await fetch(`${t.origin}/triggers/manual`, { method: "HEAD", headers: wrong })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    const limited = await fetch(`${t.origin}/triggers/manual?dir=/tv/Show`, { method: "POST", headers: wrong });
    expect(limited.status).toBe(503);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(statuses[10]).toBe(503);
  });
});
