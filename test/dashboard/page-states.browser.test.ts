import { copyFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAITING_STATES } from "../../src/queue/shown-state.js";
import type { HealthBody } from "../../src/server/health.js";
import { launchChromium, runBrowserTests } from "../helpers/chromium.js";
import { withTargetDefaults } from "../../src/config/defaults.js";
import { ManualClock } from "../../src/lib/clock.js";
import { type FakePlex, startFakePlex } from "../fakes/plex.js";
import { ARR_SECTIONS, postJson, startTestService, TEST_PASS, type TestService, waitFor } from "../helpers/service.js";
import { sonarr } from "./helpers.js";

/** The latest scan of `folder` as stored: its id, state, and its delivery to `target`: state and attempts. */
function scanOf(
  t: TestService,
  show: string,
  target = "plex",
  folder = `/data/TV/${show}`,
): { id: number; state: string; delivery: string; attempts: number } | undefined {
  const db = new Database(t.paths.database, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT s.id, s.state, d.state AS delivery, d.attempts FROM scan_queue s JOIN scan_delivery d ON d.scan_id = s.id
         WHERE s.folder = ? AND d.target = ? ORDER BY s.id DESC LIMIT 1`,
      )
      .get(folder, target) as { id: number; state: string; delivery: string; attempts: number } | undefined;
  } finally {
    db.close();
  }
}

async function scanNow(t: TestService, id: number | undefined): Promise<void> {
  const res = await fetch(`${t.base}/actions/scan-now`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id }),
  });
  expect(res.status, await res.text()).toBe(200);
}

async function queueAndSend(t: TestService, show: string): Promise<void> {
  expect((await postJson(t.base, sonarr(show))).status).toBe(202);
  await scanNow(t, scanOf(t, show)?.id);
}

async function healthOf(t: TestService): Promise<HealthBody> {
  return (await (await fetch(`${t.origin}/health`)).json()) as HealthBody;
}

/** Waits, with a deadline, for an answer that takes a request to get. */
async function untilTrue(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `scanarr_queue_scans` by state, from the Prometheus text. */
function gauge(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^scanarr_queue_scans\{state="([^"]+)"\} (\d+)$/gm)) out[m[1] as string] = Number(m[2]);
  return out;
}

const TARGET_WORDS: Record<string, string> = {
  ok: "answering",
  unknown: "not answered yet",
  unavailable: "unreachable",
  refused: "refuses its credentials",
};
const IMAGES = path.resolve("docs/images");
const ARTEFACTS = path.resolve("test-artefacts", "dashboard-states");

/** A Radarr "Download" webhook for the movie folder /movies/<folder>. */
const radarr = (folder: string) => ({
  eventType: "Download",
  movie: { folderPath: `/movies/${folder}` },
  movieFile: { relativePath: `${folder}.mkv` },
});

const SHOWS = ["Debouncing", "Confirming", "Retrying", "Failing", "Held"] as const;

describe.skipIf(!runBrowserTests)("the dashboard with a scan in every kind of wait", () => {
  let browser: Browser;
  let t: TestService;
  let movies: FakePlex;
  /** Holds the fake Plex's answer to the Confirming scan back until the Retrying one has failed. */
  let answerConfirming: () => void = () => {};

  beforeAll(async () => {
    browser = await launchChromium();
    // A second Plex holds the movies (the first one only TV, music and books), so it can be down alone.
    movies = await startFakePlex({
      sections: [{ key: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] }],
      token: "movies-token-0123456789",
    });
    const confirmingAnswered = new Promise<void>((resolve) => {
      answerConfirming = resolve;
    });
    // The clock stands still: the debounce, the retried scan's backoff and the movie server's hold last while the page is read.
    const clock = new ManualClock(Date.now());
    // Timers fall due only when the clock is told to look (advance(0)); time itself does not move.
    const due = (predicate: () => boolean) => () => {
      clock.advance(0);
      return predicate();
    };
    t = await startTestService(
      {
        SERVER_SCAN_DELAY: 600,
        PLEX_CONFIRM_SCANS: true,
        METRICS: { ENABLED: true },
        TARGETS: [withTargetDefaults({ TYPE: "plex", NAME: "plex-movies", URL: movies.url, TOKEN: movies.token })],
      },
      {
        clock,
        sections: ARR_SECTIONS.filter((s) => s.type !== "movie"),
        onPlexRequest: async (request) => {
          if (request.url.includes("refresh?") && request.url.includes(encodeURIComponent("/data/TV/Confirming"))) await confirmingAnswered;
        },
      },
    );
    // Built through the service, as a user would get them. Plex is asked to scan the first show and answers only
    // later; meanwhile it is down (503) for the second one's scan, which gets a backoff; its answer to the first
    // one brings it back, so the second one is retrying (not held), and it keeps scanning the first (confirming).
    // Then it refuses the third's scan (failed), the movie server is down for the fourth (held), and the fifth
    // is still within its debounce. The movie server has no library for the shows (and Plex none for the movie):
    // those deliveries are skipped.
    t.plex.setRefreshDuration("manual");
    await queueAndSend(t, "Confirming");
    await waitFor(
      due(() => t.plex.requests.some((r) => r.url.includes(encodeURIComponent("/data/TV/Confirming")))),
      10_000,
      "Plex to be asked to scan the first show",
    );
    t.plex.setMode(503, "refresh");
    await queueAndSend(t, "Retrying");
    await waitFor(
      due(() => scanOf(t, "Retrying")?.attempts === 1),
      10_000,
      "the first attempt to fail",
    );
    t.plex.setMode("ok", "refresh");
    answerConfirming();
    await waitFor(
      due(() => scanOf(t, "Confirming")?.delivery === "confirming"),
      10_000,
      "the scan to be confirming",
    );
    await untilTrue(async () => (await healthOf(t)).targets.plex?.state === "ok", "Plex to be answering again");
    t.plex.setMode(400, "refresh");
    await queueAndSend(t, "Failing");
    await waitFor(
      due(() => scanOf(t, "Failing")?.state === "failed"),
      10_000,
      "the scan to fail",
    );
    movies.setMode(503);
    expect((await postJson(t.base, radarr("Held"))).status).toBe(202);
    await scanNow(t, scanOf(t, "Held", "plex-movies", "/data/Movies/Held")?.id);
    await waitFor(
      due(() => scanOf(t, "Held", "plex-movies", "/data/Movies/Held")?.attempts === 1),
      10_000,
      "the movie server to fail",
    );
    expect((await postJson(t.base, sonarr("Debouncing"))).status).toBe(202);
  }, 60_000);

  afterAll(async () => {
    answerConfirming();
    await t?.stop();
    await movies?.close();
    await browser?.close();
  });

  it("shows each scan's state in words, its reason where it has one, and only the actions that mean something", async () => {
    const page = await browser.newPage();
    await page.goto(`${t.base}/`);
    const row = (show: string) => page.locator("tr[data-state]", { hasText: show === "Held" ? "/data/Movies/Held" : `/data/TV/${show}` });
    const shown = async (show: string) => row(show).getAttribute("data-state");
    const actions = async (show: string) => row(show).locator("td.actions button").allTextContents();
    const reason = async (show: string) => row(show).locator("td.state .reason").textContent();
    const states = Object.fromEntries(await Promise.all(SHOWS.map(async (show) => [show, await shown(show)])));
    expect(states).toEqual({ Debouncing: "debouncing", Confirming: "confirming", Retrying: "retrying", Failing: "failed", Held: "held" });
    expect(await row("Debouncing").locator("td.state .label").textContent()).toMatch(/^debouncing \(in 10 min\)$/);
    expect(await actions("Debouncing")).toEqual(["Scan now", "Cancel"]);
    expect(await actions("Confirming")).toEqual([]);
    expect(await actions("Failing")).toEqual(["Retry"]);
    expect(await actions("Held")).toEqual(["Scan now", "Cancel"]);
    expect(await actions("Retrying")).toEqual(["Scan now", "Cancel"]);
    expect(await reason("Held")).toMatch(/^held: plex-movies is unreachable since .*503/);
    // Plex answers again (the confirming scan's call went through): the failed call only waits for its backoff.
    expect(await reason("Retrying")).toMatch(/^retrying plex at \d\d:\d\d:\d\d after 1 attempt: .*503/);
    expect(await row("Retrying").locator("td.targets").textContent()).toMatch(/after 1 attempt.*503/s);
    // Every scan still waiting or failed says why, in words.
    for (const show of SHOWS) expect(await reason(show), show).toMatch(/\w{3,}/);
    await page.close();
  });

  it("shows every target and the verdict of /health in words, with links to /health and /metrics", async () => {
    const health = await healthOf(t);
    const page = await browser.newPage();
    await page.goto(`${t.base}/`);
    for (const [name, target] of Object.entries(health.targets as Record<string, { state: string }>)) {
      const fact = page.locator(`#health li[data-fact=target][data-name="${name}"]`);
      expect(await fact.locator(".words").textContent()).toContain(TARGET_WORDS[target.state]);
    }
    expect(health.targets["plex-movies"]?.state).toBe("unavailable");
    expect(await page.locator("#health li[data-fact=overall] .words").textContent()).toBe(health.status === "ok" ? "all good" : "degraded");
    expect(await page.locator("#reasons li").allTextContents()).toEqual(health.reasons);
    expect(await page.locator("#health .links a").evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href))).toEqual([
      `${t.origin}/health`,
      `${t.origin}/metrics`,
    ]);
    await page.close();
  });

  it("counts the same scans as /health and /metrics", async () => {
    const page = await browser.newPage();
    await page.goto(`${t.base}/`);
    const counts = Object.fromEntries(
      await page
        .locator("#counts [data-count]")
        .evaluateAll((els) => els.map((e) => [e.getAttribute("data-count"), Number(e.querySelector("b")?.textContent)])),
    ) as Record<string, number>;
    const health = await healthOf(t);
    const metrics = gauge(await (await fetch(`${t.origin}/metrics`)).text());
    // /health's pending: every scan not yet handed to every target (a confirming one was).
    expect(WAITING_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0)).toBe(health.pending);
    expect(counts.failed ?? 0).toBe(health.failed);
    for (const [state, n] of Object.entries(counts)) expect(metrics[state] ?? 0, state).toBe(n);
    expect(health.pending).toBe(3);
    expect(health.failed).toBe(1);
    await page.close();
  });

  it("charts today's scans per hour and target as SVG with a title and a table, and works without JavaScript", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${t.base}/`);
    expect(await page.locator("#today [data-total=failed] b").textContent()).toBe("1");
    // The failed scan is the only finished delivery (a confirming one is not finished; skipped ones are no scan).
    expect(await page.locator("#chart-day svg > title").textContent()).toBe(
      "Scans per hour and target, last 24 hours: 1 in all (plex 1, plex-movies 0), at most 1 in one",
    );
    expect(await page.locator("#chart-day svg rect").count()).toBe(1);
    expect(await page.locator("#chart-day table tbody tr td").allTextContents()).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:00$/),
      "1",
      "0",
    ]);
    expect(await page.locator("#latency li").allTextContents()).toEqual([
      expect.stringContaining("last 24 hours: no confirmed scan"),
      expect.stringContaining("last 7 days: no confirmed scan"),
    ]);
    await context.close();
  });

  it("fits a phone's width without sideways scrolling, in light and dark, and saves the screenshots", async () => {
    mkdirSync(ARTEFACTS, { recursive: true });
    for (const width of [1280, 390]) {
      for (const colorScheme of ["light", "dark"] as const) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
        const page = await context.newPage();
        await page.goto(`${t.base}/`);
        expect(await page.evaluate("document.documentElement.scrollWidth"), `${width} ${colorScheme}`).toBeLessThanOrEqual(width);
        const background = await page.evaluate("getComputedStyle(document.body).backgroundColor");
        expect(background).toBe(colorScheme === "dark" ? "rgb(17, 20, 24)" : "rgb(250, 251, 252)");
        // The pass is the dashboard's key: it must not show in a picture meant for the docs.
        expect(await page.content()).not.toContain(TEST_PASS);
        const file = path.join(ARTEFACTS, `dashboard-${width}-${colorScheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        if (process.env.UPDATE_DOCS_IMAGES) {
          mkdirSync(IMAGES, { recursive: true });
          copyFileSync(file, path.join(IMAGES, `dashboard-${width}-${colorScheme}.png`));
        }
        await context.close();
      }
    }
  });
});

describe.skipIf(!runBrowserTests)("the dashboard while an anchor is missing", () => {
  let browser: Browser;
  let t: TestService;
  let dir: string;
  const anchor = () => path.join(dir, "mounted.bin");

  beforeAll(async () => {
    browser = await launchChromium();
    dir = mkdtempSync(path.join(tmpdir(), "scanarr-page-"));
    writeFileSync(anchor(), "");
    t = await startTestService({ SERVER_SCAN_DELAY: 600, ANCHORS: [anchor()] }, { anchorPollMs: 100 });
    await queueAndSend(t, "Sent");
    await waitFor(() => scanOf(t, "Sent")?.state === "done", 10_000, "the scan to be delivered");
    unlinkSync(anchor());
    await untilTrue(async () => (await healthOf(t)).anchors?.ok === false, "the anchor to be seen missing");
    await queueAndSend(t, "Held");
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("holds every scan not yet handed over and says which anchor is missing", async () => {
    const page = await browser.newPage();
    await page.goto(`${t.base}/`);
    const row = page.locator("tr[data-state]", { hasText: "/data/TV/Held" });
    expect(await row.getAttribute("data-state")).toBe("held");
    expect(await row.locator("td.state .reason").textContent()).toContain(`held: anchor \`${anchor()}\` missing since`);
    expect(await row.locator("td.actions button").allTextContents()).toEqual(["Scan now", "Cancel"]);
    const anchors = page.locator("#health li[data-fact=anchors]");
    expect(await anchors.textContent()).toContain(`missing: ${anchor()}`);
    expect(await anchors.getAttribute("class")).toContain("tone-bad");
    await page.close();
  });
});
