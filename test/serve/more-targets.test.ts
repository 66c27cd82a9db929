import { afterEach, describe, expect, it } from "vitest";
import { withTargetDefaults } from "../../src/config/defaults.js";
import type { TargetConfig } from "../../src/config/types.js";
import { ManualClock } from "../../src/lib/clock.js";
import { startFakeArrTarget, type FakeArrTarget } from "../fakes/arr-target.js";
import { startFakeTdarr, type FakeTdarr } from "../fakes/tdarr.js";
import { createArgvRecorder, type ArgvRecorder } from "../helpers/argv-recorder.js";
import { deliveriesOf, deliveriesSettled, postJson, startTestService, waitFor, type TestService } from "../helpers/service.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

interface Setup {
  t: TestService;
  clock: ManualClock;
  tdarr: FakeTdarr;
  sonarr: FakeArrTarget;
  radarr: FakeArrTarget;
  recorder: ArgvRecorder;
}

/**
 * Plex sees /data (the test service's fake); Tdarr sees /media; Sonarr /tv
 * and Radarr /movies (their own roots); the command runs with Plex's paths.
 * Requests name Sonarr's and Radarr's paths (SERVER_PATH_MAPPINGS: /tv → /data/TV).
 */
async function start(options: { commandTimeout?: number; recorder?: ArgvRecorder } = {}): Promise<Setup> {
  const tdarr = await startFakeTdarr({ apiKey: "tapi_test_key_1234", libraries: ["tdarr-tv"] });
  const sonarr = await startFakeArrTarget({
    kind: "sonarr",
    rootFolders: ["/tv"],
    items: [
      { id: 3, title: "Severance", path: "/tv/Severance" },
      { id: 7, title: "Andor", path: "/tv/Andor" },
    ],
  });
  const radarr = await startFakeArrTarget({
    kind: "radarr",
    rootFolders: ["/movies"],
    items: [{ id: 12, title: "Heat", path: "/movies/Heat (1995)" }],
  });
  cleanups.push(
    () => tdarr.close(),
    () => sonarr.close(),
    () => radarr.close(),
  );
  const recorder = options.recorder ?? createArgvRecorder();
  const TARGETS: TargetConfig[] = [
    withTargetDefaults({
      TYPE: "tdarr",
      NAME: "tdarr",
      URL: tdarr.url,
      TOKEN: "tapi_test_key_1234",
      LIBRARY_ID: "tdarr-tv",
      PATH_MAPPINGS: { "/media/": ["/data/"] },
    }),
    withTargetDefaults({ TYPE: "sonarr", NAME: "sonarr", URL: sonarr.url, TOKEN: sonarr.apiKey, PATH_MAPPINGS: { "/tv/": ["/data/TV/"] } }),
    withTargetDefaults({
      TYPE: "radarr",
      NAME: "radarr",
      URL: radarr.url,
      TOKEN: radarr.apiKey,
      PATH_MAPPINGS: { "/movies/": ["/data/Movies/"] },
    }),
    withTargetDefaults({
      TYPE: "command",
      NAME: "script",
      COMMAND: [recorder.program, "--folder", "{folder}", "{file}"],
      ...(options.commandTimeout ? { TIMEOUT: options.commandTimeout } : {}),
    }),
  ];
  const clock = new ManualClock(Date.now());
  const t = await startTestService({ TARGETS }, { clock });
  cleanups.push(() => t.stop());
  return { t, clock, tdarr, sonarr, radarr, recorder };
}

async function settle(s: Setup, rounds = 1): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    s.clock.advance(11 * 60_000);
    await deliveriesSettled(s.t);
  }
}

describe("the tdarr, sonarr, radarr and command targets through serve", () => {
  it("after a Tdarr remux: Tdarr looks at the file, Sonarr rescans the series, the command gets folder and file", async () => {
    const s = await start();
    const file = "/tv/Severance/Season 1/Severance - S01E01.mkv";
    expect((await postJson(s.t.base, { eventType: "Manual", filepath: file })).status).toBe(202);
    await settle(s);
    await waitFor(() => s.tdarr.scans.length >= 1 && s.sonarr.commands.length >= 1 && s.recorder.runs().length >= 1);
    expect(s.tdarr.scans).toEqual([
      { dbID: "tdarr-tv", arrayOrPath: [`/media/TV/Severance/Season 1/Severance - S01E01.mkv`], mode: "scanFolderWatcher" },
    ]);
    expect(s.sonarr.commands).toEqual([{ name: "RescanSeries", seriesId: 3 }]);
    expect(s.recorder.runs()).toEqual([["--folder", "/data/TV/Severance/Season 1", "/data/TV/Severance/Season 1/Severance - S01E01.mkv"]]);
    expect(s.t.plex.refreshes.map((r) => r.path)).toEqual(["/data/TV/Severance/Season 1"]);
    const states = deliveriesOf(s.t, "/data/TV/Severance/Season 1");
    expect(states).toMatchObject({
      tdarr: { state: "done" },
      sonarr: { state: "done" },
      script: { state: "done" },
      plex: { state: "done" },
    });
    // Radarr keeps no TV: its root folders do not hold the folder, so it is left out, visibly.
    expect(states.radarr).toMatchObject({
      state: "skipped",
      error: expect.stringContaining("no library of radarr holds /data/TV/Severance/Season 1"),
    });
    expect(s.radarr.commands).toEqual([]);
  });

  it("reports each of them in /health once it answered (Tdarr its status, the apps their root folders, the program found)", async () => {
    const s = await start();
    await expect.poll(async () => (await fetch(`${s.t.origin}/health`)).status, { timeout: 5_000 }).toBe(200);
    const health = (await (await fetch(`${s.t.origin}/health`)).json()) as { targets: Record<string, { state: string }> };
    expect(Object.fromEntries(Object.entries(health.targets).map(([name, t]) => [name, t.state]))).toEqual({
      plex: "ok",
      tdarr: "ok",
      sonarr: "ok",
      radarr: "ok",
      script: "ok",
    });
    expect(s.tdarr.requests).toContainEqual({ method: "GET", path: "/api/v2/status" });
  });

  it("skips, as nothing to do, a folder in Sonarr's root that no series holds, and fetches the series list once for the batch", async () => {
    const s = await start();
    for (const filepath of [
      "/tv/Andor/Season 2/Andor - S02E01.mkv",
      "/tv/Andor/Season 2/Andor - S02E02.mkv",
      "/tv/Gone Show/Season 1/x.mkv",
      "/movies/Heat (1995)/Heat.mkv",
    ]) {
      expect((await postJson(s.t.base, { eventType: "Manual", filepath })).status).toBe(202);
    }
    await settle(s);
    await waitFor(() => s.sonarr.commands.length >= 1 && s.radarr.commands.length >= 1 && s.recorder.runs().length >= 3);
    await settle(s);
    expect(s.sonarr.commands).toEqual([{ name: "RescanSeries", seriesId: 7 }]);
    expect(s.radarr.commands).toEqual([{ name: "RescanMovie", movieId: 12 }]);
    expect(s.sonarr.itemListFetches).toBe(1);
    expect(deliveriesOf(s.t, "/data/TV/Gone Show/Season 1").sonarr).toEqual({
      state: "skipped",
      attempts: 1,
      error: "no series of Sonarr holds /tv/Gone Show/Season 1; nothing to rescan",
    });
    expect(s.t.logs()).toContain("the target has nothing to do for the folder; skipped there");
  });

  it("hands the command hostile names intact, and refuses a name with a line break at the way in", async () => {
    const s = await start();
    const folder = `/tv/$(rm -rf ~) it's "quoted" \`id\` ; echo pwned`;
    const file = `${folder}/-rf --help Amélie – 日本語 🎬 \\ *?.mkv`;
    expect((await postJson(s.t.base, { eventType: "Manual", filepath: file })).status).toBe(202);
    const broken = await postJson(s.t.base, { eventType: "Manual", filepath: `${folder}/two\nlines.mkv` });
    expect(broken.status).toBe(400);
    await settle(s);
    await waitFor(() => s.recorder.runs().length >= 1);
    const onPlex = (path: string) => path.replace("/tv/", "/data/TV/");
    expect(s.recorder.runs()).toEqual([["--folder", onPlex(folder), onPlex(file)]]);
  });

  it("records a command's non-zero exit as a failed delivery, with its stderr", async () => {
    const s = await start({ recorder: createArgvRecorder({ exitCode: 2, stderr: "cannot reach the TV" }) });
    expect((await postJson(s.t.base, { eventType: "Manual", filepath: "/tv/Andor/Season 1/" })).status).toBe(202);
    await settle(s);
    await waitFor(() => deliveriesOf(s.t, "/data/TV/Andor/Season 1").script?.state === "failed");
    expect(deliveriesOf(s.t, "/data/TV/Andor/Season 1").script?.error).toContain("exited with code 2; stderr: cannot reach the TV");
    expect(s.recorder.runs()).toEqual([["--folder", "/data/TV/Andor/Season 1"]]);
  });

  it("stops a command that outlives TIMEOUT and keeps the delivery for a retry", async () => {
    const s = await start({ recorder: createArgvRecorder({ sleepSeconds: 30 }), commandTimeout: 1 });
    expect((await postJson(s.t.base, { eventType: "Manual", filepath: "/tv/Andor/Season 1/" })).status).toBe(202);
    s.clock.advance(11 * 60_000);
    // The time limit runs on the service's clock: move it on until the run is stopped and recorded.
    const end = Date.now() + 15_000;
    while ((deliveriesOf(s.t, "/data/TV/Andor/Season 1").script?.attempts ?? 0) < 1) {
      if (Date.now() > end) throw new Error("timed out waiting for the stopped run to be recorded");
      s.clock.advance(2_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const script = deliveriesOf(s.t, "/data/TV/Andor/Season 1").script;
    expect(script?.state).not.toMatch(/^(failed|skipped|done)$/);
    expect(script?.error).toContain("stopped after 1 s (TARGETS[3].TIMEOUT)");
  });
});
