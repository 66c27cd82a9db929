import { afterEach, describe, expect, it } from "vitest";
import { startFakeAudiobookshelf } from "../fakes/audiobookshelf.js";
import { startFakeFileFlows } from "../fakes/fileflows.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function statusOf(url: string, method: string, init: { body?: string; type?: string; token?: string } = {}): Promise<number> {
  const headers: Record<string, string> = {};
  if (init.type) headers["Content-Type"] = init.type;
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  const response = await fetch(url, { method, headers, body: init.body });
  await response.arrayBuffer();
  return response.status;
}

describe("the Audiobookshelf and FileFlows fakes refuse what the real servers refuse", () => {
  it("Audiobookshelf: 401 without a valid token, 400 for a bad login or watcher body, 404 for another route or method", async () => {
    const abs = await startFakeAudiobookshelf({ apiToken: "tok" });
    cleanups.push(() => abs.close());
    const json = "application/json";
    expect(await statusOf(`${abs.url}/api/libraries`, "GET")).toBe(401);
    expect(await statusOf(`${abs.url}/api/libraries`, "GET", { token: "other" })).toBe(401);
    expect(await statusOf(`${abs.url}/login`, "POST", { type: json, body: '{"username":"root"}' })).toBe(400);
    expect(await statusOf(`${abs.url}/login`, "POST", { type: json, body: '{"username":"root","password":"x"}' })).toBe(401);
    const update = `${abs.url}/api/watcher/update`;
    expect(await statusOf(update, "POST", { token: "tok", type: json, body: '{"libraryId":"lib_books","path":"/a"}' })).toBe(400);
    expect(await statusOf(update, "POST", { token: "tok", type: "text/plain", body: '{"libraryId":"l","path":"/a","type":"add"}' })).toBe(
      400,
    );
    expect(await statusOf(update, "POST", { token: "tok", type: json, body: '{"libraryId":"l","path":"/a","type":"move"}' })).toBe(400);
    expect(await statusOf(update, "GET", { token: "tok" })).toBe(404);
    expect(await statusOf(`${abs.url}/api/libraries/lib_books/rescan`, "POST", { token: "tok" })).toBe(404);
    expect(abs.updates).toEqual([]);
  });

  it("FileFlows: 404 for an unknown route, 405 for another method, 415 for a body that is not JSON, 400 for a missing field", async () => {
    const ff = await startFakeFileFlows();
    cleanups.push(() => ff.close());
    const json = "application/json";
    expect(await statusOf(`${ff.url}/api/libraries`, "GET")).toBe(404);
    expect(await statusOf(`${ff.url}/api/library`, "POST", { type: json, body: "{}" })).toBe(405);
    expect(await statusOf(`${ff.url}/api/library-file/search`, "POST", { type: "text/plain", body: '{"Path":"/a","Limit":1}' })).toBe(415);
    expect(await statusOf(`${ff.url}/api/library-file/search`, "POST", { type: json, body: '{"path":"/a","limit":1}' })).toBe(400);
    expect(await statusOf(`${ff.url}/api/library-file/reprocess`, "POST", { type: json, body: '{"Uids":["u"]}' })).toBe(400);
    const add = '{"FlowUid":"no-such-flow","Files":["/media/movies/a.mkv"],"CustomVariables":{}}';
    expect(await statusOf(`${ff.url}/api/library-file/manually-add`, "POST", { type: json, body: add })).toBe(400);
    expect([ff.reprocessed, ff.added]).toEqual([[], []]);
  });
});
