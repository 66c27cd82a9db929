import { afterEach, describe, expect, it } from "vitest";
import { readArrLibrary, recogniseArr } from "../../src/arr/index.js";
import { TargetAuthError, TargetFatalError, TargetUnavailableError } from "../../src/domain.js";
import { startFakeArr, type FakeArr, type FakeArrKind } from "../fakes/arr.js";

const started: FakeArr[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((fake) => fake.close()));
});

async function fake(kind: FakeArrKind, options: Partial<Parameters<typeof startFakeArr>[0]> = {}): Promise<FakeArr> {
  const app = await startFakeArr({ kind, ...options });
  started.push(app);
  return app;
}

describe("recogniseArr", () => {
  it.each([
    ["sonarr", "/api/v3"],
    ["radarr", "/api/v3"],
    ["lidarr", "/api/v1"],
    ["readarr", "/api/v1"],
  ] as const)("recognises %s from system/status under %s, with its version and instance name", async (kind, apiRoot) => {
    const app = await fake(kind, { version: "9.1.2", instanceName: `${kind}-4k` });
    const found = await recogniseArr(`${app.url}/`, app.apiKey);
    expect(found).toEqual({ kind, url: app.url, apiKey: app.apiKey, version: "9.1.2", instanceName: `${kind}-4k` });
    expect(app.requests.at(-1)).toBe(`GET ${apiRoot}/system/status`);
  });

  it("keeps the app's URL base (a reverse proxy's sub-path) and drops a pasted API root", async () => {
    const app = await fake("radarr", { urlBase: "/radarr" });
    expect((await recogniseArr(app.url, app.apiKey)).url).toBe(app.url);
    expect((await recogniseArr(`${app.url}/api/v3/`, app.apiKey)).url).toBe(app.url);
  });

  it("names the app and the API key on a 401, and never shows the key", async () => {
    const app = await fake("sonarr");
    const wrongKey = "wrong-key-0123456789abcdef0123";
    const known = recogniseArr(app.url, wrongKey, { kind: "sonarr" });
    await expect(known).rejects.toThrow(TargetAuthError);
    await expect(known).rejects.toThrow(`Sonarr at ${app.url} refused the API key (401)`);
    const unknown = (await recogniseArr(app.url, wrongKey).catch((e: unknown) => e)) as Error;
    expect(unknown.message).toMatch(/The \*arr app at .* refused the API key \(401\).*Settings > General > Security > API Key/);
    expect(unknown.message).not.toContain(wrongKey);
  });

  it("names the address tried when nothing answers there", async () => {
    const app = await fake("lidarr");
    await app.setAvailability("refuse");
    const error = (await recogniseArr(app.url, app.apiKey).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(TargetUnavailableError);
    expect(error.message).toContain(`at ${app.url} is unreachable (ECONNREFUSED)`);
  });

  it("refuses an app other than the one asked for, and a URL with credentials in it", async () => {
    const app = await fake("radarr");
    await expect(recogniseArr(app.url, app.apiKey, { kind: "sonarr" })).rejects.toThrow(`${app.url} is Radarr, not Sonarr`);
    await expect(recogniseArr(app.url.replace("http://", "http://me:pw@"), app.apiKey)).rejects.toThrow(TargetFatalError);
    await expect(recogniseArr(app.url, " ")).rejects.toThrow("the API key for");
  });
});

describe("readArrLibrary", () => {
  it("reads the root folders and every item's folder", async () => {
    const app = await fake("sonarr", { rootFolders: ["/tv", "/tv4k"], items: ["/tv/The Expanse", "/tv4k/Dune"] });
    const library = await readArrLibrary(await recogniseArr(app.url, app.apiKey));
    expect(library).toEqual({ rootFolders: ["/tv", "/tv4k"], itemPaths: ["/tv/The Expanse", "/tv4k/Dune"], itemCount: 2 });
  });

  it("hands back a bounded sample spread over the whole list", async () => {
    const items = Array.from({ length: 100 }, (_, i) => `/books/Author ${String(i).padStart(3, "0")}`);
    const app = await fake("readarr", { rootFolders: ["/books"], items });
    const library = await readArrLibrary(await recogniseArr(app.url, app.apiKey), { sample: 10 });
    expect(library.itemCount).toBe(100);
    expect(library.itemPaths).toHaveLength(10);
    expect(library.itemPaths[0]).toBe("/books/Author 000");
    expect(library.itemPaths[9]).toBe("/books/Author 090");
  });
});
