import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { allowViolations } from "../../fakes/spec/violations.js";

// The fake stands in for Plex in many tests; these pin down that it answers like Plex does.
let plex: FakePlex;

beforeEach(async () => {
  plex = await startFakePlex();
});

afterEach(async () => {
  await plex.close();
});

const call = (path: string, init: RequestInit = {}): Promise<Response> => fetch(plex.url + path, init);
const withToken = (extra: Record<string, string> = {}): RequestInit => ({ headers: { "X-Plex-Token": plex.token, ...extra } });

describe("fake Plex", () => {
  it("answers 401 with Plex's HTML page when the token is missing or wrong", async () => {
    allowViolations(/carries none of the credentials/);
    for (const init of [{}, { headers: { "X-Plex-Token": "wrong" } }]) {
      const response = await call("/library/sections", init);
      expect(response.status).toBe(401);
      expect(await response.text()).toContain("401 Unauthorized");
    }
  });

  it("accepts the token in the query string too, as Plex does", async () => {
    const response = await call(`/library/sections?X-Plex-Token=${plex.token}`, { headers: { Accept: "application/json" } });
    expect(response.status).toBe(200);
    expect(plex.requests[0]?.tokenIn).toBe("query");
  });

  it("serves XML without an Accept header and JSON with one, on both section paths", async () => {
    const xml = await call("/library/sections", withToken());
    expect(xml.headers.get("content-type")).toContain("xml");
    expect(await xml.text()).toMatch(/<Directory [^>]*key="2"[^>]*type="show"[^>]*>\s*<Location id="\d+" path="\/data\/TV-Shows" \/>/);
    const json = await call("/library/sections/all", withToken({ Accept: "application/json" }));
    const body = (await json.json()) as { MediaContainer: { size: number; Directory: Array<{ key: unknown }> } };
    expect(body.MediaContainer.size).toBe(4);
    expect(body.MediaContainer.Directory.map((d) => d.key)).toEqual(["1", "2", "3", "5"]);
  });

  it("records a refresh with its decoded path and answers 200 with an empty body", async () => {
    const response = await call("/library/sections/2/refresh?path=%2Fdata%2FTV-Shows%2FA%20%26%20B", withToken());
    expect([response.status, await response.text()]).toEqual([200, ""]);
    expect(plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV-Shows/A & B" }]);
  });

  it("answers 404 for an unknown section or a PUT refresh, 500 for a non-numeric id, and records none", async () => {
    // Requests no description allows, sent on purpose to see the fake refuse them as Plex does.
    allowViolations(/PUT \/library\/sections\/1\/refresh|sections\/None\/refresh|\/no\/such\/endpoint/);
    const statuses = [
      (await call("/library/sections/42/refresh?path=%2Fx", withToken())).status,
      (await call("/library/sections/1/refresh?path=%2Fx", { ...withToken(), method: "PUT" })).status,
      (await call("/library/sections/None/refresh", withToken())).status,
      (await call("/no/such/endpoint", withToken())).status,
    ];
    expect(statuses).toEqual([404, 404, 500, 404]);
    expect(plex.refreshes).toEqual([]);
  });

  it("answers /identity without a token, and keeps doing so when the token is refused", async () => {
    plex.setMode(401);
    const response = await call("/identity", { headers: { Accept: "application/json" } });
    const body = (await response.json()) as { MediaContainer: { claimed: boolean } };
    expect(body.MediaContainer.claimed).toBe(true);
  });

  it("fails only the scoped route when a mode is set for it", async () => {
    plex.setMode(503, "refresh");
    expect((await call("/library/sections", withToken())).status).toBe(200);
    expect((await call("/library/sections/1/refresh?path=%2Fx", withToken())).status).toBe(503);
    plex.setMode("ok", "refresh");
    expect((await call("/library/sections/1/refresh?path=%2Fx", withToken())).status).toBe(200);
  });

  it("waits for refreshes that arrive later and gives up with a count after its timeout", async () => {
    const waiting = plex.waitForRefreshes(1);
    await call("/library/sections/1/refresh?path=%2Fdata%2FMovies%2FX", withToken());
    await expect(waiting).resolves.toBeUndefined();
    await expect(plex.waitForRefreshes(2, 50)).rejects.toThrow("saw 1 of 2");
  });

  it("closes promptly while a request hangs", async () => {
    plex.setMode("hang");
    const hanging = call("/library/sections", withToken()).catch((error: unknown) => error);
    await expect.poll(() => plex.requests.length).toBe(1);
    await plex.close();
    expect(await hanging).toBeInstanceOf(Error);
    plex = await startFakePlex();
  });
});
