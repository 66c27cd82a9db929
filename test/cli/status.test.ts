import { afterEach, describe, expect, it } from "vitest";
import path from "node:path";
import { runCli, tempDir } from "../helpers/cli.js";
import { deliveriesSettled, postJson, startTestService, storedScans, waitFor, type TestService } from "../helpers/service.js";

const sonarr = (show: string) => ({ eventType: "Download", series: { path: `/tv/${show}` }, episodeFile: { relativePath: "S01E01.mkv" } });

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

/** `scanarr status` against the running service's install folder. */
async function status(service: TestService, ...args: string[]) {
  return runCli(["--install-dir", path.dirname(service.paths.dataDir), "status", ...args]);
}

/** Webhooks for new folders, posted until `done` settles: the service writes while status reads. */
async function whileWriting<T>(service: TestService, done: Promise<T>): Promise<T> {
  let stop = false;
  const writer = (async () => {
    for (let i = 0; !stop; i++) await postJson(service.base, sonarr(`Busy ${i}`));
  })();
  try {
    return await done;
  } finally {
    stop = true;
    await writer;
  }
}

describe("scanarr status", () => {
  it("follows a delivered request from the webhook to Plex, while serve runs and writes", async () => {
    t = await startTestService();
    expect((await postJson(t.base, sonarr("Lost"))).status).toBe(202);
    await t.plex.waitForRefreshes(1);
    await deliveriesSettled(t);
    const service = t;
    const { code, stdout } = await whileWriting(service, status(service, "/tv/Lost/S01E01.mkv"));
    expect(code).toBe(0);
    expect(stdout).toMatch(/received\s+\d\d:\d\d:\d\d from sonarr \(Download\): \/tv\/Lost\/S01E01\.mkv/);
    expect(stdout).toContain(
      "mapped     /data/TV/Lost/S01E01.mkv — mapped from `/tv/Lost/S01E01.mkv` by SERVER_PATH_MAPPINGS (`/tv/` → `/data/TV/`)",
    );
    expect(stdout).toMatch(/scan\s+#\d+ of \/data\/TV\/Lost, 1 request in all/);
    expect(stdout).toMatch(/plex\s+done at \d\d:\d\d:\d\d \(1 attempt\)/);
    expect(stdout).toMatch(/now\s+done\n/);

    // The media server's path finds the same request; so does its folder.
    const byFolder = await status(service, "/data/TV/Lost", "--json");
    expect(byFolder.code).toBe(0);
    const json = JSON.parse(byFolder.stdout) as { requests: Array<{ origin: { path: string }; scan: { state: string; reason: unknown } }> };
    expect(json.requests.map((r) => [r.origin.path, r.scan.state, r.scan.reason])).toEqual([["/tv/Lost/S01E01.mkv", "done", null]]);
  });

  it("says a request is held by a missing anchor, and since when", async () => {
    const anchor = path.join(tempDir(), "mounted.bin");
    t = await startTestService({ ANCHORS: [anchor] }, { anchorPollMs: 50 });
    expect((await postJson(t.base, sonarr("Fringe"))).status).toBe(202);
    const service = t;
    let out = "";
    await waitFor(
      () => {
        void status(service, "/tv/Fringe/S01E01.mkv").then((r) => (out = r.stdout));
        return /now\s+held: held: anchor/.test(out);
      },
      10_000,
      "status to say held",
    );
    expect(out).toContain(`now        held: held: anchor \`${anchor}\` missing since `);
    expect(out).toMatch(/plex\s+pending\n/);
    expect(t.plex.refreshes).toEqual([]);
  });

  it("says why a request failed", async () => {
    t = await startTestService();
    t.plex.setMode(400, "refresh");
    await postJson(t.base, sonarr("Heroes"));
    const service = t;
    await waitFor(() => storedScans(service).some((s) => s.state === "failed"), 10_000, "the scan to fail");
    const { code, stdout } = await status(service, "/tv/Heroes/S01E01.mkv");
    expect(code).toBe(0);
    expect(stdout).toMatch(/plex\s+failed at \d\d:\d\d:\d\d \(1 attempt\): TargetFatalError: /);
    expect(stdout).toMatch(/now\s+failed: plex: TargetFatalError: /);
    // Also once serve has stopped (its WAL files gone): the read-only open still reads.
    await service.stop();
    t = undefined;
    const after = await status(service, "/tv/Heroes/S01E01.mkv");
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(stdout);
  });

  it("says no request named a path that never arrived, and names the nearest", async () => {
    t = await startTestService();
    await postJson(t.base, sonarr("Lost"));
    await postJson(t.base, sonarr("Lost Girl"));
    await t.plex.waitForRefreshes(2);
    const { code, stdout } = await status(t, "/tv/Lost/S01E02.mkv");
    expect(code).toBe(1);
    expect(stdout).toBe(
      "/tv/Lost/S01E02.mkv\n  no request for this path\n  the nearest were:\n    /tv/Lost/S01E01.mkv\n    /tv/Lost Girl/S01E01.mkv\n",
    );
  });

  it("answers 2 without a path", async () => {
    t = await startTestService();
    const { code, stderr } = await status(t);
    expect(code).toBe(2);
    expect(stderr).toMatch(/path/);
  });
});
