import { describe, expect, it } from "vitest";
import { prepareHistory, QueueBrowser } from "../../src/queue/views/history.js";
import type { DeliveryJob } from "../../src/queue/types.js";
import { createQueue, request } from "../queue/helpers.js";

function setup() {
  const { queue, clock, db, reads } = createQueue({ targets: ["plex", "jelly"] });
  return { queue, clock, db, reads, actions: queue, browser: new QueueBrowser(db) };
}

function fail(queue: ReturnType<typeof setup>["queue"], target: string): DeliveryJob {
  const [job] = queue.claimDue(target, 1);
  if (!job) throw new Error(`nothing due for ${target}`);
  queue.recordFailed(job, "HTTP 500 from the server");
  return job;
}

describe("queue actions", () => {
  it("scan now makes a debouncing scan due at once", () => {
    const { queue, clock, actions, reads } = setup();
    queue.enqueue([request("/data/TV/Lost")]);
    expect(queue.claimDue("plex", 5)).toEqual([]);
    const [scan] = reads.listPending();
    expect(actions.scanNow(scan?.id ?? -1)).toEqual({ ok: true, id: scan?.id });
    expect(queue.nextDueAt("plex")).toBe(clock.now());
    expect(queue.claimDue("plex", 5).map((j) => j.folder)).toEqual(["/data/TV/Lost"]);
  });

  it("retries a failed scan only on the targets it failed on", () => {
    const { queue, clock, actions, reads } = setup();
    queue.enqueue([request("/data/TV/Lost")]);
    clock.advance(10_000);
    const [done] = queue.claimDue("jelly", 1);
    queue.recordDone(done as DeliveryJob, []);
    const job = fail(queue, "plex");
    expect(reads.listFailed().map((s) => s.id)).toEqual([job.scanId]);
    expect(actions.retry(job.scanId)).toEqual({ ok: true, id: job.scanId });
    expect(queue.countFailed()).toBe(0);
    expect(queue.claimDue("jelly", 1)).toEqual([]);
    const [again] = queue.claimDue("plex", 1);
    expect(again?.attempts).toBe(1);
    queue.recordDone(again as DeliveryJob, []);
    expect(reads.recent(1)[0]?.state).toBe("done");
  });

  it("refuses to retry a pending scan and to cancel a finished one, changing nothing", () => {
    const { queue, clock, actions, reads } = setup();
    queue.enqueue([request("/data/TV/Lost")]);
    const id = reads.listPending()[0]?.id ?? -1;
    expect(actions.retry(id)).toMatchObject({ ok: false, status: 409 });
    clock.advance(10_000);
    fail(queue, "plex");
    fail(queue, "jelly");
    expect(actions.cancel(id)).toMatchObject({ ok: false, status: 409 });
    expect(actions.scanNow(id)).toMatchObject({ ok: false, status: 409 });
    expect(actions.retry(999)).toMatchObject({ ok: false, status: 404 });
    expect(reads.recent(1)[0]?.state).toBe("failed");
  });

  it("cancels a waiting scan: nothing is delivered and it shows as cancelled in the history", () => {
    const { queue, clock, actions, browser, reads } = setup();
    queue.enqueue([request("/data/TV/Lost")]);
    const id = reads.listPending()[0]?.id ?? -1;
    expect(actions.cancel(id)).toEqual({ ok: true, id });
    clock.advance(60_000);
    expect(queue.claimDue("plex", 5)).toEqual([]);
    expect(queue.countPending()).toBe(0);
    const page = browser.history({ state: "cancelled" }, 10);
    expect(page.scans.map((s) => [s.id, s.state, s.deliveries.map((d) => d.state)])).toEqual([
      [id, "cancelled", ["cancelled", "cancelled"]],
    ]);
  });

  it("clears only finished scans older than the cutoff", () => {
    const { queue, clock, actions, browser, reads } = setup();
    queue.enqueue([request("/data/TV/Old")]);
    clock.advance(10_000);
    fail(queue, "plex");
    fail(queue, "jelly");
    clock.advance(3 * 86_400_000);
    queue.enqueue([request("/data/TV/New")]);
    expect(actions.clearHistory(clock.now() - 86_400_000)).toBe(1);
    expect(browser.history({}, 10).scans).toEqual([]);
    expect(reads.listPending().map((s) => s.folder)).toEqual(["/data/TV/New"]);
  });
});

describe("history pages", () => {
  function finished(n: number) {
    const s = setup();
    for (let i = 0; i < n; i++) {
      s.queue.enqueue([request(`/data/TV/Show ${String(i).padStart(3, "0")}`, i % 2 === 0 ? "sonarr" : "manual")]);
      s.clock.advance(10_000);
      const target = i % 3 === 0 ? "plex" : "jelly";
      const other = target === "plex" ? "jelly" : "plex";
      const [a] = s.queue.claimDue(target, 1);
      s.queue.recordDone(a as DeliveryJob, []);
      const [b] = s.queue.claimDue(other, 1);
      if (i % 5 === 0) s.queue.recordFailed(b as DeliveryJob, "boom");
      else s.queue.recordDone(b as DeliveryJob, []);
    }
    return s;
  }

  it("walks the whole history newest first, page by page, without repeating or skipping a scan", () => {
    const { browser } = finished(23);
    const seen: string[] = [];
    let page = browser.history({}, 10);
    seen.push(...page.scans.map((s) => s.folder));
    while (page.next) {
      page = browser.history({}, 10, page.next);
      seen.push(...page.scans.map((s) => s.folder));
    }
    expect(seen).toHaveLength(23);
    expect(seen[0]).toBe("/data/TV/Show 022");
    expect(new Set(seen).size).toBe(23);
  });

  it("filters by state, source and folder text", () => {
    const { browser } = finished(20);
    expect(browser.history({ state: "failed" }, 50).scans.map((s) => s.folder)).toEqual([
      "/data/TV/Show 015",
      "/data/TV/Show 010",
      "/data/TV/Show 005",
      "/data/TV/Show 000",
    ]);
    expect(browser.history({ state: "failed", source: "manual" }, 50).scans.map((s) => s.folder)).toEqual([
      "/data/TV/Show 015",
      "/data/TV/Show 005",
    ]);
    expect(browser.history({ text: "show 01" }, 50).scans).toHaveLength(10);
    expect(browser.history({ target: "nope" }, 50).scans).toEqual([]);
    expect(browser.counts()).toMatchObject({ done: 16, failed: 4, queued: 0, debouncing: 0 });
  });

  it("answers pages through their own indexes, never walking the table or sorting", () => {
    const { db } = setup();
    const st = prepareHistory(db);
    const plan = (rows: unknown[]) => (rows as Array<{ detail: string }>).map((r) => r.detail).join("; ");
    const params = { state: "failed", source: "sonarr", target: "plex", text: "lost", finishedAt: 1, id: 1, limit: 50 };
    const history = plan(db.prepare(`EXPLAIN QUERY PLAN ${st.historyPage.source}`).all(params));
    expect(history).toMatch(/(SEARCH|SCAN) scan_queue USING INDEX scan_queue_history/);
    expect(history).not.toMatch(/TEMP B-TREE/);
    const pending = plan(db.prepare(`EXPLAIN QUERY PLAN ${st.pendingPage.source}`).all(1, 1, 1, 50));
    expect(pending).toMatch(/SEARCH scan_queue USING INDEX scan_queue_pending_order/);
    expect(pending).not.toMatch(/TEMP B-TREE/);
  });
});
