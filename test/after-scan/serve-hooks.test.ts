import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { tempDir } from "../helpers/cli.js";
import { postForm, startTestService, waitFor, type TestService } from "../helpers/service.js";

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

function readEnv(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\0")
      .filter((line) => line.startsWith("SCANARR_"))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

describe("serve: after the scan", () => {
  it("confirms a manual folder scan by its section finishing, runs both hooks with the facts as environment variables, and never runs a folder name", async () => {
    const dir = tempDir();
    const marker = path.join(dir, "pwned");
    const clock = new ManualClock(Date.now());
    t = await startTestService(
      {
        PLEX_CONFIRM_SCANS: true,
        RUN_COMMAND_BEFORE_SCAN: `env -0 > '${dir}/before.env'`,
        RUN_COMMAND_AFTER_SCAN: ["/bin/sh", "-c", `env -0 > '${dir}/after.env'`],
      },
      { clock },
    );
    const folder = `/data/TV/$(touch ${marker})/Season 1`;
    const res = await postForm(t.base, { eventType: "Manual", filepath: `/tv/$(touch ${marker})/Season 1/` });
    expect(res.status).toBe(202);
    // The group commit and the delivery wait on the injected clock: a moment, far less than a poll interval.
    clock.advance(100);
    await t.plex.waitForRefreshes(1);
    await waitFor(() => t?.logs().includes("before-scan hook ran") ?? false, 5_000, "the before-scan hook");
    const before = readEnv(`${dir}/before.env`);
    expect(before).toMatchObject({ SCANARR_HOOK: "before", SCANARR_FOLDER: folder, SCANARR_SOURCE: "manual", SCANARR_TARGET: "plex" });
    const queued = async () =>
      (await (await fetch(`${t?.base}/api/queue`)).json()) as {
        pending: Array<{ folder: string; state: string; deliveries: Array<{ state: string }> }>;
      };
    // The clock has not moved: no poll yet, so the scan waits and the after-hook has not run.
    await waitFor(() => t?.logs().includes("waiting for Plex to confirm it") ?? false, 5_000, "the delivery to be recorded");
    expect((await queued()).pending.find((s) => s.folder === folder)?.state).toBe("confirming");
    expect(existsSync(`${dir}/after.env`)).toBe(false);
    clock.advance(10_000);
    await waitFor(() => t?.logs().includes("after-scan hook ran") ?? false, 5_000, "the after-scan hook");
    const after = readEnv(`${dir}/after.env`);
    expect(after).toMatchObject({ SCANARR_HOOK: "after", SCANARR_FOLDER: folder, SCANARR_RESULT: "confirmed", SCANARR_SECTION: "2" });
    expect(JSON.parse(after.SCANARR_JSON ?? "{}")).toMatchObject({ folder, result: "confirmed" });
    expect(existsSync(marker)).toBe(false);
    expect(t.plex.refreshes).toHaveLength(1);
  });
});
