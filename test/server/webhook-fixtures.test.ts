import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFixtureFiles, loadFixture, readExpectedFolders, webhookFixtures } from "../triggers/helpers.js";
import { postJson, startTestService, storedScans, type TestService } from "../helpers/service.js";

/** What SERVER_PATH_MAPPINGS of the test service makes of the fixtures' own paths. */
function mapped(folder: string): string {
  return folder
    .replace(/^\/tv\//, "/data/TV/")
    .replace(/^\/movies\//, "/data/Movies/")
    .replace(/^\/music\//, "/data/Music/")
    .replace(/^\/books\//, "/data/Books/");
}

describe.skipIf(!webhookFixtures.run)("every shared webhook fixture, posted to a real service", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => t?.stop());

  const expected = webhookFixtures.run ? readExpectedFolders() : {};
  for (const file of webhookFixtures.run ? listFixtureFiles() : []) {
    it(`${file} reaches Plex as ${JSON.stringify(expected[file] ?? [])}`, async () => {
      const folders = (expected[file] ?? []).map(mapped).sort();
      const before = t.plex.refreshes.length;
      const scansBefore = storedScans(t).length;
      const answer = await postJson(t.base, loadFixture(file));
      if (folders.length === 0) {
        expect(answer.status).toBe(200);
        expect(["test", "ignored"]).toContain(answer.body.status);
        // Answered only after the queue committed: no scan now means none will reach Plex.
        expect(storedScans(t).length).toBe(scansBefore);
        return;
      }
      expect(answer.status).toBe(202);
      expect([...(answer.body.queued as string[]), ...(answer.body.covered as string[])].sort()).toEqual(folders);
      await t.plex.waitForRefreshes(before + folders.length);
      const reached = t.plex.refreshes
        .slice(before)
        .map((r) => r.path ?? "")
        .sort();
      expect(reached).toEqual(folders);
    });
  }
});
