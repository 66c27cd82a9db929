import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetFatalError, TargetUnavailableError } from "../../../src/domain.js";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import { fetchWithoutAccept } from "./without-accept.js";
import { startFakePlex, type FakePlex, type FakePlexMode } from "../../fakes/plex.js";

let plex: FakePlex;
let client: PlexApiClient;

beforeEach(async () => {
  plex = await startFakePlex({
    sections: [
      { key: "1", title: "Movies", type: "movie", locations: ["/data/Movies", "/data/Movies 4K"] },
      { key: "2", title: "TV Shows", type: "show", locations: ["/data/TV"] },
    ],
  });
  client = new PlexApiClient({ baseUrl: plex.url, token: plex.token, timeoutMs: 2_000 });
});

afterEach(async () => {
  await plex.close();
});

describe("PlexApiClient.listLibraries", () => {
  it("maps every section of the JSON answer to a library with all its locations", async () => {
    expect(await client.listLibraries()).toEqual([
      { id: "1", title: "Movies", type: "movie", locations: ["/data/Movies", "/data/Movies 4K"] },
      { id: "2", title: "TV Shows", type: "show", locations: ["/data/TV"] },
    ]);
  });

  it("sends the token in the X-Plex-Token header and asks for JSON, never putting the token in the URL", async () => {
    await client.listLibraries();
    expect(plex.requests).toEqual([
      { method: "GET", url: "/library/sections", tokenIn: "header", accept: "application/json", at: expect.any(Number) },
    ]);
  });

  it("reads Plex's XML answer when the Accept header was lost on the way", async () => {
    const xmlClient = new PlexApiClient({ baseUrl: plex.url, token: plex.token, fetch: fetchWithoutAccept });
    expect(await xmlClient.listLibraries()).toEqual(await client.listLibraries());
    expect(plex.requests[0]?.accept).not.toContain("json");
  });

  it("returns no library when Plex has none (Plex then leaves Directory out)", async () => {
    plex.setSections([]);
    expect(await client.listLibraries()).toEqual([]);
  });

  it("keeps Windows locations, unicode and XML-escaped characters exactly as Plex sent them", async () => {
    const locations = ["C:\\Media\\Films & Docs", "D:\\Séries <TV>", "/data/\"Quoted\" 'Music'"];
    plex.setSections([{ key: "7", title: "Mixed & Odd", type: "movie", locations }]);
    const xmlClient = new PlexApiClient({ baseUrl: plex.url, token: plex.token, fetch: fetchWithoutAccept });
    const expected = [{ id: "7", title: "Mixed & Odd", type: "movie", locations }];
    expect(await client.listLibraries()).toEqual(expected);
    expect(await xmlClient.listLibraries()).toEqual(expected);
  });

  it("answers TargetAuthError with a message that names the fix when the token is wrong", async () => {
    const wrong = new PlexApiClient({ baseUrl: plex.url, token: "not-the-token" });
    const error = await wrong.listLibraries().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetAuthError);
    expect((error as Error).message).toContain("PLEX_TOKEN");
    expect((error as Error).message).not.toContain("not-the-token");
  });

  it("works without a token against a server that does not ask for one", async () => {
    let seenToken: string | undefined = "unset";
    const open = createServer((req, res) => {
      seenToken = req.headers["x-plex-token"] as string | undefined;
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"MediaContainer":{"size":0}}');
    });
    open.listen(0, "127.0.0.1");
    await once(open, "listening");
    const url = `http://127.0.0.1:${(open.address() as AddressInfo).port}`;
    expect(await new PlexApiClient({ baseUrl: url, token: "" }).listLibraries()).toEqual([]);
    expect(seenToken).toBeUndefined();
    open.close();
  });
});

describe("PlexApiClient.refresh", () => {
  const folders = [
    "/data/TV/Show Name/Season 01",
    "/data/Movies/Amélie (2001)",
    "/data/Movies/Tom & Jerry",
    "/data/Movies/#1 Hits",
    "/data/Movies/What? (2020)",
    "/data/Movies/100% Real",
    "/data/Movies/a+b=c",
    "/data/Movies/東京物語 (1953)",
    "/data/Movies/emoji 🎬",
    "C:\\Media\\TV\\Show\\Season 1",
  ];

  it.each(folders)("delivers %s to Plex byte for byte", async (folder) => {
    await client.refresh("1", folder);
    expect(plex.refreshes).toEqual([{ sectionId: "1", path: folder }]);
    const url = plex.requests[0]?.url ?? "";
    expect(url).toMatch(/^\/library\/sections\/1\/refresh\?path=[A-Za-z0-9%._~()!*'-]+$/);
    expect(plex.requests[0]?.tokenIn).toBe("header");
  });

  it("answers TargetUnavailableError when the section does not exist (any more)", async () => {
    await expect(client.refresh("99", "/data/TV/Show")).rejects.toBeInstanceOf(TargetUnavailableError);
    expect(plex.refreshes).toEqual([]);
  });
});

describe("status codes", () => {
  const table: Array<[FakePlexMode, unknown]> = [
    [401, TargetAuthError],
    [403, TargetAuthError],
    [404, TargetUnavailableError],
    [500, TargetUnavailableError],
    [502, TargetUnavailableError],
    [503, TargetUnavailableError],
    [400, TargetFatalError],
    [405, TargetFatalError],
  ];

  it.each(table)("maps %s to %O for listing and for scanning, with the token kept out of the message", async (mode, errorClass) => {
    plex.setMode(mode);
    const listing = await client.listLibraries().catch((e: unknown) => e);
    const scanning = await client.refresh("1", "/data/Movies/X").catch((e: unknown) => e);
    for (const error of [listing, scanning]) {
      expect(error).toBeInstanceOf(errorClass);
      expect((error as Error).message).toContain(String(mode));
      expect((error as Error).message).not.toContain(plex.token);
    }
    expect(plex.refreshes).toEqual([]);
  });

  it("answers TargetUnavailableError after the timeout when Plex accepts the connection but never answers", async () => {
    plex.setMode("hang");
    const quick = new PlexApiClient({ baseUrl: plex.url, token: plex.token, timeoutMs: 150 });
    const error = await quick.refresh("1", "/data/Movies/X").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetUnavailableError);
    expect((error as Error).message).toContain("did not answer within 150 ms");
  });

  it("answers TargetUnavailableError naming the cause when nothing listens", async () => {
    await plex.close();
    const error = await client.listLibraries().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetUnavailableError);
    expect((error as Error).message).toContain("ECONNREFUSED");
    plex = await startFakePlex();
  });

  it("answers TargetUnavailableError when a 200 carries no MediaContainer (a proxy page, a removed section)", async () => {
    const page = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<html>login</html>"));
    page.listen(0, "127.0.0.1");
    await once(page, "listening");
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    const error = await new PlexApiClient({ baseUrl: url, token: "t0ken" }).listLibraries().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetUnavailableError);
    expect((error as Error).message).toContain("MediaContainer");
    page.close();
  });

  it("does not follow a redirect, so the token never reaches another server", async () => {
    const redirect = createServer((_req, res) => res.writeHead(302, { Location: `${plex.url}/library/sections` }).end());
    redirect.listen(0, "127.0.0.1");
    await once(redirect, "listening");
    const url = `http://127.0.0.1:${(redirect.address() as AddressInfo).port}`;
    const error = await new PlexApiClient({ baseUrl: url, token: plex.token }).listLibraries().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetFatalError);
    expect((error as Error).message).toContain("set PLEX_LOCAL_URL");
    expect(plex.requests).toEqual([]);
    redirect.close();
  });
});

describe("PlexApiClient construction and identity", () => {
  it.each([
    ["not a url", "is not a URL"],
    ["ftp://plex:32400", "must start with http"],
    ["http://user:secret@plex:32400", "must not contain a user name"],
    ["http://plex:32400/?X-Plex-Token=abc", "must not contain a query string"],
  ])("refuses PLEX_LOCAL_URL %s as a fatal target error", (baseUrl, message) => {
    const attempt = (): unknown => new PlexApiClient({ baseUrl, token: "t" });
    expect(attempt).toThrow(TargetFatalError);
    expect(attempt).toThrow(message);
  });

  it("keeps a reverse-proxy path prefix in front of every call", async () => {
    const urls: string[] = [];
    const recording: typeof fetch = async (input) => {
      urls.push(String(input));
      return new Response("", { status: 200 });
    };
    await new PlexApiClient({ baseUrl: "https://proxy.example/plex/", token: "t", fetch: recording }).refresh("3", "/m");
    expect(urls).toEqual(["https://proxy.example/plex/library/sections/3/refresh?path=%2Fm"]);
  });

  it("reads the server identity, which Plex answers even with a wrong token", async () => {
    const wrong = new PlexApiClient({ baseUrl: plex.url, token: "wrong-token" });
    const identity = await wrong.identity();
    expect(identity.claimed).toBe(true);
    expect(identity.version).toMatch(/^1\.\d+\.\d+\.\d+-/);
    expect(identity.machineIdentifier).not.toBe("");
  });
});
