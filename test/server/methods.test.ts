import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, TEST_PASS, type TestService } from "../helpers/service.js";

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.stop());

describe("405 answers name the methods a route takes", () => {
  it.each([
    ["/health", "POST", "GET, HEAD"],
    [`/api/${TEST_PASS}`, "DELETE", "GET, POST"],
    [`/${TEST_PASS}`, "DELETE", "GET, HEAD, POST, PUT"],
    [`/${TEST_PASS}/api/queue`, "POST", "GET, HEAD"],
  ])("%s answers %s with 405 and Allow: %s", async (route, method, allow) => {
    const res = await fetch(`${t.origin}${route}`, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(((await res.json()) as { error: string }).error).toMatch(/^use /);
  });

  it("checks the pass before the method, so a wrong pass learns nothing about routes", async () => {
    expect((await fetch(`${t.origin}/wrong-pass/api/queue`, { method: "POST" })).status).toBe(401);
  });
});
