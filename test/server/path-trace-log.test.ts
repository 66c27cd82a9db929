import { afterEach, describe, expect, it } from "vitest";
import { postJson, startTestService, TEST_PASS, type TestService } from "../helpers/service.js";

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe("which mapping rewrote a request's path", () => {
  it("logs one debug line per path with the prefix, the key and the result, and no secret", async () => {
    t = await startTestService();
    const res = await postJson(t.base, { eventType: "Manual", filepath: "My Drive/Media/TV/Severance/Season 1/e.mkv" });
    expect(res.status).toBe(202);
    const lines = t
      .logs()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "path mapped");
    expect(lines).toEqual([
      expect.objectContaining({
        level: 20,
        path: "My Drive/Media/TV/Severance/Season 1/e.mkv",
        prefix: "My Drive/Media/TV/",
        key: "/data/TV/",
        mapped: "/data/TV/Severance/Season 1/e.mkv",
      }),
    ]);
    expect(t.logs()).not.toContain(TEST_PASS);
  });
});
