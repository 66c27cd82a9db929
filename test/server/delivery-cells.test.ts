import { describe, expect, it } from "vitest";
import type { ListedScan } from "../../src/queue/views/history.js";
import type { DeliveryView } from "../../src/queue/types.js";
import { renderHistory } from "../../src/server/dashboard/tables.js";
import { elapsedText } from "../../src/server/views/elapsed.js";
import { renderManualPage } from "../../src/server/views/manual-page.js";

const NOW = 1_700_000_000_000;

function delivery(target: string, confirmedAfterMs: number | null, state: DeliveryView["state"] = "done"): DeliveryView {
  return { target, state, dueAt: NOW, attempts: 1, lastError: null, libraries: null, detail: null, confirmedAfterMs, updatedAt: NOW };
}

function scan(deliveries: DeliveryView[]): ListedScan {
  return {
    id: 1,
    folder: "/data/TV/Show/Season 1",
    priority: 0,
    requests: 1,
    source: "sonarr",
    event: "Download",
    firstRequestedAt: NOW - 80_000,
    lastRequestedAt: NOW - 80_000,
    dueAt: NOW - 80_000,
    state: "done",
    stateText: "done",
    reason: null,
    actions: [],
    origins: [],
    finishedAt: NOW,
    deliveries,
    files: [],
    fileCount: 0,
    fileChecks: 0,
    nextFileCheckAt: null,
    detail: null,
  };
}

describe("the time Plex took to confirm a scan", () => {
  it("reads as seconds, then minutes and seconds, hours and minutes, days and hours", () => {
    expect([400, 8_000, 72_000, 120_000, 3_600_000, 7_500_000, 90_061_000].map(elapsedText)).toEqual([
      "0 s",
      "8 s",
      "1 min 12 s",
      "2 min",
      "1 h",
      "2 h 5 min",
      "1 d 1 h",
    ]);
  });

  it("shows on the manual page, per target when the scan went to several", () => {
    const single = renderManualPage([scan([delivery("plex", 72_000)])], NOW, "token");
    expect(single).toContain('<small class="confirmed-after">confirmed in 1 min 12 s</small>');
    const two = renderManualPage([scan([delivery("plex", 12_000), delivery("plex-4k", null, "unconfirmed")])], NOW, "token");
    expect(two).toContain('<small class="confirmed-after">plex: confirmed in 12 s</small>');
    expect(two).not.toContain("plex-4k: confirmed");
  });

  it("shows on the dashboard next to each confirmed delivery, and not for one never confirmed", () => {
    const html = renderHistory([scan([delivery("plex", 72_000), delivery("jellyfin", null)])], {
      now: NOW,
      prefix: "./",
      formToken: "t",
    }).text;
    expect(html).toMatch(
      /data-target="plex"><b>plex<\/b>: <span class="state-done">done<\/span> <small class="confirmed-after">confirmed in 1 min 12 s<\/small>/,
    );
    expect(html).toMatch(/data-target="jellyfin"><b>jellyfin<\/b>: <span class="state-done">done<\/span> \(1 attempt\)<\/div>/);
  });
});

describe("a delivery a target skipped", () => {
  it("says why in the reasons' grey, without an attempt count, while a failure stays red with its count", () => {
    const skipped = { ...delivery("jellyfin", null, "skipped"), lastError: "no library of jellyfin holds /data/TV/Show/Season 1" };
    const failed = { ...delivery("plex", null, "failed"), attempts: 5, lastError: "Plex answered 500" };
    const html = renderHistory([scan([failed, skipped])], { now: NOW, prefix: "./", formToken: "t" }).text;
    expect(html).toContain(
      '<b>jellyfin</b>: <span class="state-skipped">skipped</span><br><small class="reason">no library of jellyfin holds /data/TV/Show/Season 1</small>',
    );
    expect(html).toContain(
      '<b>plex</b>: <span class="state-failed">failed</span> (5 attempts)<br><small class="error-text">Plex answered 500</small>',
    );
  });
});
