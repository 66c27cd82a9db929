import { describe, expect, it } from "vitest";
import { QueueBrowser } from "../../../src/queue/views/history.js";
import { SHOWN_STATES } from "../../../src/queue/shown-state.js";
import type { DeliveryJob } from "../../../src/queue/types.js";
import { createQueue, request } from "../helpers.js";

/** Tallies the states the lists show, to hold the counts against. */
function tally(states: string[]): Record<string, number> {
  const counts = Object.fromEntries(SHOWN_STATES.map((s) => [s, 0]));
  for (const s of states) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

function setup() {
  const made = createQueue({
    targets: ["plex", "jellyfin"],
    delayMs: 60_000,
    fileChecks: { maxChecks: 3, delayMs: 60_000, scanFolderOnExhaustion: true },
  });
  const browser = new QueueBrowser(made.db, made.clock);
  const shown = () => [...browser.pending(500).scans, ...browser.history({}, 500).scans];
  return { ...made, browser, shown };
}

function createQueueWithOneTarget() {
  const made = createQueue({ targets: ["plex"], delayMs: 60_000 });
  const browser = new QueueBrowser(made.db, made.clock);
  return { ...made, shown: () => [...browser.pending(500).scans, ...browser.history({}, 500).scans] };
}

const byFolder = <S extends { folder: string }>(scans: S[], folder: string): S | undefined => scans.find((s) => s.folder === folder);

describe("the states a scan shows", () => {
  it("tell each wait apart, offer only the meaningful actions, and count the same as the lists", () => {
    const { queue, clock, browser, shown } = setup();
    queue.enqueue([{ folder: "/data/TV/Lost/Season 1", source: "sonarr", event: "Download", files: ["/data/TV/Lost/Season 1/e1.mkv"] }]);
    queue.enqueue([request("/data/TV/Fringe"), request("/data/TV/Heroes"), request("/data/TV/Alias"), request("/data/TV/Dune")]);
    clock.advance(60_000);
    // Fringe goes out to both targets: Plex accepts and confirms, Jellyfin fails for good.
    const plexJobs = queue.claimDue("plex", 2);
    const [fringePlex, heroesPlex] = plexJobs as [DeliveryJob, DeliveryJob];
    queue.recordDelivered(fringePlex, [], true);
    queue.recordRetry(heroesPlex, clock.now() + 300_000, "TargetUnavailableError: 503 Service Unavailable");
    const jellyfin = queue.claimDue("jellyfin", 4);
    const fringeJelly = jellyfin.find((j) => j.folder === "/data/TV/Fringe") as DeliveryJob;
    const aliasJelly = jellyfin.find((j) => j.folder === "/data/TV/Alias") as DeliveryJob;
    queue.recordFailed(fringeJelly, "TargetFatalError: 400 Bad Request");
    queue.recordDone(aliasJelly, []);
    // Dune: still in flight on Jellyfin. Heroes: retrying on Plex. Alias: done on Jellyfin, waiting its turn on Plex.
    queue.enqueue([request("/data/Movies/Up", "radarr")]);

    const scans = shown();
    const state = (folder: string) => byFolder(scans, folder)?.state;
    expect(state("/data/TV/Lost/Season 1")).toBe("waiting-for-files");
    expect(state("/data/TV/Fringe")).toBe("confirming");
    expect(state("/data/TV/Heroes")).toBe("delivering");
    expect(state("/data/TV/Alias")).toBe("queued");
    expect(state("/data/Movies/Up")).toBe("debouncing");
    expect(browser.counts()).toEqual(tally(scans.map((s) => s.state)));

    // Confirming: nothing to do, and no old error beside it.
    const fringe = byFolder(scans, "/data/TV/Fringe");
    expect(fringe?.actions).toEqual([]);
    expect(fringe?.deliveries.find((d) => d.target === "plex")?.lastError).toBeNull();
    expect(byFolder(scans, "/data/Movies/Up")?.actions).toEqual(["scan-now", "cancel"]);
    expect(byFolder(scans, "/data/TV/Alias")?.actions).toEqual(["cancel"]);
    expect(byFolder(scans, "/data/TV/Heroes")?.actions).toEqual([]);

    // Jellyfin's Heroes comes back as a retry: with Plex retrying too, Heroes retries.
    const heroesJelly = jellyfin.find((j) => j.folder === "/data/TV/Heroes") as DeliveryJob;
    queue.recordRetry(heroesJelly, clock.now() + 120_000, "TargetUnavailableError: connect ECONNREFUSED");
    const heroes = byFolder(shown(), "/data/TV/Heroes");
    expect(heroes?.state).toBe("retrying");
    expect(heroes?.reason?.code).toBe("retrying");
    expect(heroes?.reason?.text).toMatch(
      /^retrying jellyfin at \d\d:\d\d:\d\d after 1 attempt: TargetUnavailableError: connect ECONNREFUSED; plex at/,
    );
    expect(heroes?.actions).toEqual(["scan-now", "cancel"]);
    expect(browser.counts()).toEqual(tally(shown().map((s) => s.state)));

    // A target down holds what waits only for it; a missing anchor holds everything due.
    queue.recordHolds([{ kind: "target-down", subject: "plex", detail: "TargetUnavailableError: 503 Service Unavailable" }]);
    const alias = byFolder(shown(), "/data/TV/Alias");
    expect(alias?.state).toBe("held");
    expect(alias?.reason).toMatchObject({ code: "target-down", at: clock.now() });
    expect(alias?.reason?.text).toMatch(/^held: plex is unreachable since \d\d:\d\d:\d\d \(TargetUnavailableError: 503/);
    expect(byFolder(shown(), "/data/TV/Heroes")?.state).toBe("retrying");
    expect(browser.counts()).toEqual(tally(shown().map((s) => s.state)));

    queue.recordHolds([{ kind: "anchor", subject: "/mnt/unionfs/mounted.bin", detail: "not found" }]);
    expect(byFolder(shown(), "/data/TV/Heroes")?.reason?.text).toMatch(/^held: anchor `\/mnt\/unionfs\/mounted\.bin` missing since /);
    expect(browser.counts()).toEqual(tally(shown().map((s) => s.state)));
    expect(browser.counts()).toMatchObject({ held: 2, delivering: 1, confirming: 1, debouncing: 1, "waiting-for-files": 1 });

    queue.recordHolds([{ kind: "token-refused", subject: "plex", detail: "TargetAuthError: 401 Unauthorized" }]);
    expect(byFolder(shown(), "/data/TV/Alias")?.reason?.text).toMatch(/^held: plex refused the token at \d\d:\d\d:\d\d/);
    queue.recordHolds([]);
    expect(byFolder(shown(), "/data/TV/Alias")?.state).toBe("queued");
  });

  it("says what a waiting scan waits for, with the path as its source named it and the mapping that rewrote it", () => {
    const { queue, clock, shown } = setup();
    queue.enqueue([
      {
        folder: "/mnt/unionfs/TV/X",
        source: "sonarr",
        event: "Download",
        files: ["/mnt/unionfs/TV/X/S01E01.mkv"],
        origins: [
          {
            path: "/downloads/TV/X/S01E01.mkv",
            mapped: "/mnt/unionfs/TV/X/S01E01.mkv",
            mappingKey: "/mnt/unionfs/TV/",
            mappingPrefix: "/downloads/TV/",
          },
        ],
      },
    ]);
    // Its quiet time first: files are looked for once it is due.
    expect(shown()[0]?.state).toBe("debouncing");
    clock.advance(60_000);
    const [scan] = shown();
    expect(scan?.reason?.text).toBe(
      "waiting for `/mnt/unionfs/TV/X/S01E01.mkv` to appear (checked 0 times, next look at " +
        `${scan?.reason?.text.match(/next look at ([^;]+);/)?.[1]}; mapped from \`/downloads/TV/X/S01E01.mkv\` by SERVER_PATH_MAPPINGS ` +
        "(`/downloads/TV/` → `/mnt/unionfs/TV/`); if the file is elsewhere on this machine, fix that mapping)",
    );
    expect(scan?.origins).toMatchObject([{ path: "/downloads/TV/X/S01E01.mkv", mappingKey: "/mnt/unionfs/TV/", times: 1 }]);
  });

  it("shows a retried scan confirming without its old unconfirmed error", () => {
    const { queue, clock, shown } = createQueueWithOneTarget();
    queue.enqueue([request("/data/TV/Lost")]);
    clock.advance(60_000);
    const [job] = queue.claimDue("plex", 1) as [DeliveryJob];
    queue.recordDelivered(job, [], true);
    const [confirming] = queue.listConfirming("plex");
    const finish = { deliveryId: confirming?.deliveryId ?? -1, scanId: job.scanId, progress: null, detail: "not confirmed" };
    queue.recordConfirmed([{ ...finish, state: "unconfirmed", error: "not as expected: /data/TV/Lost/e1.mkv" }]);
    const [unconfirmed] = shown();
    expect(unconfirmed).toMatchObject({ state: "unconfirmed", actions: ["retry"] });
    expect(unconfirmed?.reason?.text).toBe("plex: not as expected: /data/TV/Lost/e1.mkv");
    expect(queue.retry(job.scanId)).toEqual({ ok: true, id: job.scanId });
    const [again] = queue.claimDue("plex", 1) as [DeliveryJob];
    queue.recordDelivered(again, [], true);
    const [retried] = shown();
    expect(retried?.state).toBe("confirming");
    expect(retried?.deliveries.map((d) => d.lastError)).toEqual([null]);
    expect(retried?.reason?.text).toBe("plex accepted it; waiting for confirmation");
  });

  it("keeps a request's paths with the scan that absorbs its folder", () => {
    const { queue, shown } = setup();
    queue.enqueue([request("/data/TV/Lost/Season 1")]);
    queue.enqueue([request("/data/TV/Lost")]);
    const scans = shown();
    expect(scans.map((s) => s.folder)).toEqual(["/data/TV/Lost"]);
    expect(scans[0]?.origins.map((o) => o.path).sort()).toEqual(["/data/TV/Lost", "/data/TV/Lost/Season 1"]);
  });
});
