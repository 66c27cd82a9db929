import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { withTargetDefaults } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { ManualClock } from "../../src/lib/clock.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { tempDir } from "../helpers/cli.js";
import { postJson, startTestService, waitFor, type TestService } from "../helpers/service.js";
import { advanceUntil, scanOf } from "./serve-steps.js";

// The flat Plex sees /data/TV (ARR_SECTIONS); the 4K server mounts the same media at /mnt/tv.
const SEASON = "/data/TV/Show/Season 1";
const SEASON_4K = "/mnt/tv/Show/Season 1";
const EPISODE = "Show - S01E01 - 2160p.mkv";
const OLD = "Show - S01E01 - 1080p.mkv";

let t: TestService | undefined;
let plex4k: FakePlex | undefined;
afterEach(async () => {
  await t?.stop();
  await plex4k?.close();
  t = undefined;
  plex4k = undefined;
});

async function startTwo(entry: Record<string, unknown>, overrides: Partial<Config> = {}) {
  plex4k = await startFakePlex({
    sections: [{ key: "7", title: "TV 4K", type: "show", locations: ["/mnt/tv"] }],
    token: "four-k-token-0123",
  });
  const clock = new ManualClock(Date.now());
  const dir = tempDir();
  t = await startTestService(
    {
      PLEX_CONFIRM_SCANS: true,
      RUN_COMMAND_AFTER_SCAN: ["/bin/sh", "-c", `env -0 > "${dir}/after-$SCANARR_TARGET.env"`],
      TARGETS: [
        {
          ...withTargetDefaults({ TYPE: "plex", NAME: "plex-4k", URL: plex4k.url, TOKEN: plex4k.token }),
          PATH_MAPPINGS: { "/mnt/tv/": ["/data/TV/"] },
          ...entry,
        },
      ],
      ...overrides,
    },
    { clock },
  );
  const service = t;
  const fourK = plex4k;
  const requests = () => service.plex.requests.length + fourK.requests.length;
  const untilDone = () =>
    advanceUntil(
      clock,
      requests,
      async () => (await scanOf(service.base, SEASON))?.state === "done",
      "the scan to be done on both servers",
    );
  const hookEnv = (target: string): Record<string, string> =>
    Object.fromEntries(
      readFileSync(`${dir}/after-${target}.env`, "utf8")
        .split("\0")
        .filter((line) => line.startsWith("SCANARR_"))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
  return { service, fourK, clock, untilDone, hookEnv };
}

async function send(service: TestService, clock: ManualClock, body: Record<string, unknown>, plexes: FakePlex[]): Promise<void> {
  expect((await postJson(service.base, { eventType: "Download", series: { title: "Show", path: "/tv/Show" }, ...body })).status).toBe(202);
  clock.advance(100);
  for (const plex of plexes) await plex.waitForRefreshes(1);
}

describe("serve: after-scan work for a TARGETS Plex entry", () => {
  it("confirms an import on each Plex server in its own path form, and analyzes only where the entry turns it on", async () => {
    const { service, fourK, clock, untilDone, hookEnv } = await startTwo({ ANALYZE_TYPE: "basic" });
    service.plex.addFile(`${SEASON}/${EPISODE}`);
    fourK.addFile(`${SEASON_4K}/${EPISODE}`);
    await send(service, clock, { episodeFile: { relativePath: `Season 1/${EPISODE}` } }, [service.plex, fourK]);
    await untilDone();
    expect(service.plex.refreshes).toEqual([{ sectionId: "2", path: SEASON }]);
    expect(fourK.refreshes).toEqual([{ sectionId: "7", path: SEASON_4K }]);
    // Analyze: the flat PLEX_ANALYZE_TYPE is "off"; the entry's "basic" applies to its server alone.
    expect(service.plex.analyzed).toEqual([]);
    expect(fourK.analyzed).toEqual([fourK.itemOf(`${SEASON_4K}/${EPISODE}`)?.ratingKey]);
    const scan = await scanOf(service.base, SEASON);
    const byTarget = Object.fromEntries((scan?.deliveries ?? []).map((d) => [d.target, d]));
    expect(byTarget.plex?.detail).toMatch(/^confirmed \d+ s after the first request$/);
    expect(byTarget["plex-4k"]?.detail).toMatch(/^confirmed \d+ s after the first request; analyzed 1 item/);
    expect(byTarget["plex-4k"]?.confirmedAfterMs).toBeGreaterThanOrEqual(10_000);
    // Each server was asked with its own token only.
    expect(fourK.requests.every((r) => r.tokenIn === "header")).toBe(true);
    // The after-scan hook ran once per server, with that server's name and path form.
    await waitFor(() => service.logs().split("after-scan hook ran").length === 3, 5_000, "both after-scan hooks");
    expect(hookEnv("plex")).toMatchObject({
      SCANARR_TARGET: "plex",
      SCANARR_FOLDER: SEASON,
      SCANARR_RESULT: "confirmed",
      SCANARR_SECTION: "2",
    });
    expect(hookEnv("plex-4k")).toMatchObject({
      SCANARR_TARGET: "plex-4k",
      SCANARR_FOLDER: SEASON_4K,
      SCANARR_FILES: `${SEASON_4K}/${EPISODE}`,
      SCANARR_RESULT: "confirmed",
      SCANARR_SECTION: "7",
    });
  });

  it("marks a scan unconfirmed on the server that never lists the file, while the other confirms it", async () => {
    const { service, fourK, clock } = await startTwo({}, { PLEX_CONFIRM_RESCAN_DELAY: 30 });
    service.plex.addFile(`${SEASON}/${EPISODE}`);
    await send(service, clock, { episodeFile: { relativePath: `Season 1/${EPISODE}` } }, [service.plex, fourK]);
    const requests = () => service.plex.requests.length + fourK.requests.length;
    await advanceUntil(
      clock,
      requests,
      async () => (await scanOf(service.base, SEASON))?.state === "unconfirmed",
      "the scan to be unconfirmed",
    );
    expect(fourK.refreshes).toEqual([
      { sectionId: "7", path: SEASON_4K },
      { sectionId: "7", path: SEASON_4K },
    ]);
    expect(service.plex.refreshes).toHaveLength(1);
    const deliveries = (await scanOf(service.base, SEASON))?.deliveries ?? [];
    expect(deliveries.map((d) => [d.target, d.state])).toEqual([
      ["plex", "done"],
      ["plex-4k", "unconfirmed"],
    ]);
    expect(deliveries[1]?.lastError).toContain(`${SEASON_4K}/${EPISODE}`);
  });

  it("empties the trash after an upgrade only on the server whose entry turns it on", async () => {
    const { service, fourK, clock, untilDone } = await startTwo({ EMPTY_TRASH: true });
    for (const [plex, season] of [
      [service.plex, SEASON],
      [fourK, SEASON_4K],
    ] as const) {
      plex.addItem(`${season}/${OLD}`);
      plex.removeFile(`${season}/${OLD}`);
      plex.addFile(`${season}/${EPISODE}`);
    }
    const upgrade = { episodeFile: { relativePath: `Season 1/${EPISODE}` }, deletedFiles: [{ path: `/tv/Show/Season 1/${OLD}` }] };
    await send(service, clock, upgrade, [service.plex, fourK]);
    await untilDone();
    expect(fourK.emptiedTrash).toEqual(["7"]);
    expect(fourK.trashCount("7")).toBe(0);
    expect(service.plex.emptiedTrash).toEqual([]);
    expect(service.plex.trashCount("2")).toBe(1);
    const deliveries = (await scanOf(service.base, SEASON))?.deliveries ?? [];
    expect(deliveries.find((d) => d.target === "plex-4k")?.detail).toContain("trash: emptied (1 deleted items)");
  });
});
