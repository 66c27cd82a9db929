import { afterEach, describe, expect, it } from "vitest";
import { SHOWN_STATES } from "../../src/queue/shown-state.js";
import { parseExposition } from "../helpers/prometheus.js";
import { postJson, startServiceOn, startTestService, storedScans, waitFor, type TestService } from "../helpers/service.js";
import { sonarr } from "./helpers.js";

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe("the counts per state", () => {
  it("are the same on the page, in /health, in /metrics and in the JSON API", async () => {
    t = await startTestService({ METRICS: { ENABLED: true } });
    t.plex.setMode(400, "refresh");
    await postJson(t.base, sonarr("Lost"));
    const service = t;
    await waitFor(() => storedScans(service).some((s) => s.state === "failed"), 10_000, "a failed scan");
    t.plex.setMode("ok", "refresh");
    await postJson(t.base, sonarr("Fringe"));
    await t.plex.waitForRefreshes(1);
    await t.stop();
    const first = t;
    t = undefined;
    // The same queue, now with a debounce: new requests wait.
    const again = await startServiceOn({ ...first.config, SERVER_SCAN_DELAY: 600 }, first.paths);
    try {
      await postJson(again.base, sonarr("Heroes"));
      await postJson(again.base, sonarr("Alias"));
      const api = ((await (await fetch(`${again.base}/api/queue`)).json()) as { counts: Record<string, number> }).counts;
      const health = ((await (await fetch(`${again.origin}/health`)).json()) as { counts: Record<string, number>; pending: number }).counts;
      const { samples } = parseExposition(await (await fetch(`${again.origin}/metrics`)).text());
      const gauge = Object.fromEntries(samples.filter((s) => s.name === "scanarr_queue_scans").map((s) => [s.labels.state, s.value]));
      const pageText = await (await fetch(`${again.base}/`)).text();
      const page = Object.fromEntries([...pageText.matchAll(/data-count="([a-z-]+)"><b>(\d+)<\/b>/g)].map((m) => [m[1], Number(m[2])]));
      const expected = { ...Object.fromEntries(SHOWN_STATES.map((s) => [s, 0])), debouncing: 2, done: 1, failed: 1 };
      expect(api).toEqual(expected);
      expect(health).toEqual(expected);
      expect(gauge).toEqual(expected);
      expect(page).toEqual(expected);
    } finally {
      await again.service.stop();
    }
  });
});
