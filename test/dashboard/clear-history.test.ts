import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, postJson, startTestService, storedScans, waitFor, type TestService } from "../helpers/service.js";
import { sonarr } from "./helpers.js";

describe("clear-history over real HTTP", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    expect((await postJson(t.base, sonarr("Lost"))).status).toBe(202);
    await waitFor(() => storedScans(t).some((s) => s.state === "done"), 10_000, "the scan to be delivered");
  });
  afterAll(async () => t?.stop());

  const finished = () => storedScans(t).filter((s) => s.state === "done").length;

  const NOT_DAYS: Array<[string, unknown]> = [
    ['""', ""],
    ["null", null],
    ["[]", []],
    ["[30]", [30]],
    ["false", false],
    ["true", true],
    ["{}", {}],
    ["0", 0],
    ['"0"', "0"],
    ["-1", -1],
    ['"-1"', "-1"],
    ["1.5", 1.5],
    ['"1.5"', "1.5"],
    ['"1e3"', "1e3"],
    ['" 1"', " 1"],
    ['"abc"', "abc"],
    ["36501", 36_501],
    ["1e300", 1e300],
  ];

  for (const [label, days] of NOT_DAYS) {
    it(`answers 400 and clears nothing for "days": ${label}`, async () => {
      const res = await postJson(`${t.base}/actions/clear-history`, { days });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("days must be a whole number of days from 1 to 36500");
      expect(finished()).toBe(1);
    });
  }

  it("answers 400 and clears nothing without days, or with an empty form field", async () => {
    expect((await postJson(`${t.base}/actions/clear-history`, {})).status).toBe(400);
    expect((await postForm(`${t.base}/actions/clear-history`, { days: "" })).status).toBe(400);
    expect(finished()).toBe(1);
  });

  it("takes a JSON number or a form field of digits", async () => {
    const json = await postJson(`${t.base}/actions/clear-history`, { days: 1 });
    expect(json).toMatchObject({ status: 200, body: { cleared: 0, message: "cleared 0 finished scans older than 1 days" } });
    expect((await postForm(`${t.base}/actions/clear-history`, { days: "36500" })).status).toBe(200);
    expect(finished()).toBe(1);
  });

  it("takes only a scan number as the id of the other actions", async () => {
    for (const id of [true, "", null, [1], "1.0", 0]) {
      expect((await postJson(`${t.base}/actions/retry`, { id })).status, JSON.stringify(id)).toBe(400);
    }
  });

  it("offers no value under 1 in the page's form", async () => {
    const page = await (await fetch(`${t.base}/`)).text();
    expect(page).toMatch(/<input type="number" name="days" min="1" step="1"[^>]*required/);
  });
});
