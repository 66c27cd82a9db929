import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { sharedFixture } from "../helpers/shared-fixtures.js";
import { postJson, startTestService, type TestService } from "../helpers/service.js";

const webhooks = sharedFixture("webhooks", "the webhook fixtures");
const running: TestService[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.stop();
});

async function pendingAfter(fixture: string) {
  // A long debounce keeps the scan pending so the queue shows what it remembered.
  const service = await startTestService({ SERVER_SCAN_DELAY: 3_600 }, { clock: new ManualClock() });
  running.push(service);
  const body = JSON.parse(readFileSync(webhooks.file(fixture), "utf8")) as unknown;
  expect((await postJson(service.base, body)).status).toBe(202);
  const answer = (await (await fetch(`${service.base}/api/queue`)).json()) as {
    pending: Array<{ folder: string; files: Array<{ path: string; deleted: boolean }> }>;
  };
  return answer.pending;
}

describe.runIf(webhooks.run)("files a webhook names", () => {
  it("are kept with the scan: an upgrade's new file to wait for and the replaced one as deleted", async () => {
    const [scan] = await pendingAfter("sonarr-download-upgrade.json");
    expect(scan?.folder).toBe("/data/TV/Severance/Season 1");
    expect(scan?.files).toEqual([
      { path: "/data/TV/Severance/Season 1/Severance - S01E01 - Good News About Hell WEBDL-1080p.mkv", deleted: true, seen: false },
      { path: "/data/TV/Severance/Season 1/Severance - S01E01 - Good News About Hell WEBDL-2160p.mkv", deleted: false, seen: false },
    ]);
  });

  it("mark a deleted episode file as deleted and a series delete as a folder without files", async () => {
    const [fileDelete] = await pendingAfter("sonarr-episode-file-delete.json");
    expect(fileDelete?.files.length).toBeGreaterThan(0);
    expect(fileDelete?.files.every((f) => f.deleted)).toBe(true);
    const [seriesDelete] = await pendingAfter("sonarr-series-delete.json");
    expect(seriesDelete?.files).toEqual([]);
  });
});
