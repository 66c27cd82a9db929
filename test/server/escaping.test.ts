import { afterEach, describe, expect, it } from "vitest";
import { renderHistory, renderPending } from "../../src/server/dashboard/tables.js";
import { renderLoginPage } from "../../src/server/login/login-page.js";
import { renderManualPage } from "../../src/server/views/manual-page.js";
import { renderResultPage } from "../../src/server/views/result-page.js";
import type { ListedScan } from "../../src/queue/views/history.js";
import { postForm, postJson, startTestService, type TestService } from "../helpers/service.js";
import { postLogin, withLogin } from "../dashboard/login-helpers.js";

// Every character that matters in content or in a quoted attribute.
const HOSTILE = `<img src=x onerror="alert('x')">`;
const RAW = /<img src=x|onerror="alert/;
const ESCAPED = "&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;";

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

function hostileScan(state: ListedScan["state"]): ListedScan {
  return {
    id: 1,
    folder: `/data/TV/${HOSTILE}`,
    source: HOSTILE,
    event: HOSTILE,
    state,
    stateText: state,
    reason: { code: "failed", text: HOSTILE, at: 0 },
    actions: ["retry", "cancel"],
    origins: [],
    detail: HOSTILE,
    requests: 1,
    firstRequestedAt: 0,
    lastRequestedAt: 0,
    dueAt: 0,
    finishedAt: 0,
    files: [{ path: `/data/TV/${HOSTILE}/a.mkv`, seen: false, deleted: false }],
    fileCount: 1,
    deliveries: [
      { target: HOSTILE, state: "failed", attempts: 1, dueAt: 0, lastError: HOSTILE, confirmedAfterMs: 1000 },
      { target: "plex", state: "done", attempts: 1, dueAt: 0, lastError: null, confirmedAfterMs: null },
    ],
  } as unknown as ListedScan;
}

describe("hostile names on every page", () => {
  it("are escaped on the dashboard page, its live fragment and the form's result page", async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 3600 });
    expect((await postJson(t.base, { eventType: "Manual", filepath: `/tv/${HOSTILE}/` })).status).toBe(202);
    const query = new URLSearchParams({ trace: `/tv/${HOSTILE}`, done: HOSTILE, q: HOSTILE });
    for (const url of [`${t.base}/?${query}`, `${t.base}/fragment`]) {
      const page = await (await fetch(url)).text();
      expect(page, url).toContain(ESCAPED);
      expect(page, url).not.toMatch(RAW);
    }
    const result = await postForm(t.base, { eventType: "Manual", filepath: `/tv/${HOSTILE}/` }, { accept: "text/html" });
    expect(result.text).toContain(ESCAPED);
    expect(result.text).not.toMatch(RAW);
  });

  it("are escaped on the login page that repeats the typed name", async () => {
    t = await startTestService(await withLogin());
    const page = await (await postLogin(t, HOSTILE, "wrong")).text();
    expect(page).toContain(`value="${ESCAPED}"`);
    expect(page).not.toMatch(RAW);
  });

  it("are escaped in the queue and history tables, target names and errors included", () => {
    const view = { now: 0, prefix: "./", formToken: HOSTILE };
    for (const table of [renderPending([hostileScan("queued")], view), renderHistory([hostileScan("failed")], view)]) {
      expect(table.text).toContain(`<b>${ESCAPED}</b>`);
      expect(table.text).toContain(`<small class="error-text">${ESCAPED}</small>`);
      expect(table.text).toContain(`<small class="reason" data-reason="failed">${ESCAPED}</small>`);
      expect(table.text).not.toMatch(RAW);
    }
  });

  it("are escaped on the manual page, the result page and the login form", () => {
    const scan = hostileScan("failed");
    const pages = [
      renderManualPage([scan], 0, HOSTILE),
      renderResultPage(false, HOSTILE, [HOSTILE]),
      renderLoginPage({ action: HOSTILE, formToken: HOSTILE, problem: HOSTILE, username: HOSTILE }),
    ];
    for (const page of pages) {
      expect(page).toContain(ESCAPED);
      expect(page).not.toMatch(RAW);
    }
  });
});
