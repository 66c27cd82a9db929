import { afterEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetUnavailableError } from "../../../src/domain.js";
import { ManualClock } from "../../../src/lib/clock.js";
import { AudiobookshelfApiClient } from "../../../src/targets/audiobookshelf/api.js";
import { AudiobookshelfTarget } from "../../../src/targets/audiobookshelf/audiobookshelf-target.js";
import { startFakeAudiobookshelf, type FakeAudiobookshelf, type FakeAudiobookshelfOptions } from "../../fakes/audiobookshelf.js";

const API_TOKEN = "abs_api_token_5f2c9e";
const LIBRARIES = [
  { id: "lib_books", name: "Audiobooks", folders: ["/audiobooks", "/more/audiobooks"] },
  { id: "lib_pods", name: "Podcasts", mediaType: "podcast" as const, folders: ["/podcasts"] },
];
/** The books library as listed, for scans that need no lookup first. */
const BOOKS = { id: "lib_books", title: "Audiobooks", type: "book", locations: ["/audiobooks"] };
const servers: FakeAudiobookshelf[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function abs(options: FakeAudiobookshelfOptions = {}): Promise<FakeAudiobookshelf> {
  const server = await startFakeAudiobookshelf({ apiToken: API_TOKEN, libraries: LIBRARIES, ...options });
  servers.push(server);
  return server;
}

type Credential = { token: string } | { username: string; password: string };

function target(server: FakeAudiobookshelf, credential: Credential = { token: API_TOKEN }, timeoutMs = 5_000): AudiobookshelfTarget {
  const login = "username" in credential;
  const api = new AudiobookshelfApiClient({
    baseUrl: `${server.url}/`,
    apiKey: login ? "" : credential.token,
    username: login ? credential.username : "",
    password: login ? credential.password : "",
    urlKey: "TARGETS[2].URL",
    credentialKey: login ? "TARGETS[2].USERNAME and TARGETS[2].PASSWORD" : "TARGETS[2].TOKEN",
    timeoutMs,
  });
  return new AudiobookshelfTarget({ name: "abs", api, clock: new ManualClock() });
}

describe("the Audiobookshelf target", () => {
  it("finds the library by its folders and has it look at each named file, as its own watcher would", async () => {
    const server = await abs();
    const t = target(server);
    const folder = "/more/audiobooks/Ursula K. Le Guin/A Wizard of Earthsea";
    const [library, ...others] = await t.libraries.librariesFor(folder);
    expect([library?.id, others]).toEqual(["lib_books", []]);
    if (!library) return;
    await t.scan(folder, library, [`${folder}/01.m4b`, `${folder}/02.m4b`]);
    expect(server.updates).toEqual([
      { libraryId: "lib_books", path: `${folder}/01.m4b`, type: "add" },
      { libraryId: "lib_books", path: `${folder}/02.m4b`, type: "add" },
    ]);
  });

  it("sends the folder when the request named no file, and finds no library for a folder outside every one", async () => {
    const server = await abs();
    const t = target(server);
    const [pods] = await t.libraries.librariesFor("/podcasts/Show");
    if (!pods) throw new Error("no library for /podcasts/Show");
    await t.scan("/podcasts/Show", pods);
    expect(server.updates).toEqual([{ libraryId: "lib_pods", path: "/podcasts/Show", type: "add" }]);
    expect(await t.libraries.librariesFor("/audiobooks 2/Other")).toEqual([]);
    expect(await t.libraries.librariesFor("/music/Album")).toEqual([]);
  });

  it("sends names with quotes, backslashes and any script verbatim in the JSON body", async () => {
    const server = await abs();
    const t = target(server);
    const folder = `/audiobooks/O'Brien "Tim"/Ça \\ 東京 🎧`;
    const [library] = await t.libraries.librariesFor(folder);
    if (!library) throw new Error("no library");
    await t.scan(folder, library, [`${folder}/Part 1 & 2.mp3`]);
    expect(server.updates).toEqual([{ libraryId: "lib_books", path: `${folder}/Part 1 & 2.mp3`, type: "add" }]);
  });

  it("logs in once with a user's name and password, and again once when the server forgets the token", async () => {
    const server = await abs();
    const t = target(server, { username: "root", password: "hunter2-abs" });
    const found = await Promise.all([t.libraries.librariesFor("/audiobooks/A"), t.libraries.librariesFor("/audiobooks/B")]);
    expect(found.map((libraries) => libraries.map((l) => l.id))).toEqual([["lib_books"], ["lib_books"]]);
    await t.scan("/audiobooks/A", BOOKS);
    server.expireLogins();
    await t.scan("/audiobooks/B", BOOKS);
    expect(server.updates.map((u) => u.path)).toEqual(["/audiobooks/A", "/audiobooks/B"]);
    expect(server.requests.filter((r) => r.path === "/login")).toHaveLength(2);
  });

  it("stops on a wrong password, naming the keys to check and never the password", async () => {
    const server = await abs();
    const error = await target(server, { username: "root", password: "not-the-password" })
      .scan("/audiobooks/A", BOOKS)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetAuthError);
    expect(String(error)).toContain("TARGETS[2].USERNAME and TARGETS[2].PASSWORD");
    expect(String(error)).not.toContain("not-the-password");
    expect(server.updates).toEqual([]);
  });

  it("stops on a refused API token without logging in, and says a user who is not an admin cannot send watcher updates", async () => {
    const server = await abs({ users: [{ username: "reader", password: "reader-pass", admin: false }] });
    const wrong = await target(server, { token: "abs_wrong" })
      .scan("/audiobooks/A", BOOKS)
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(TargetAuthError);
    expect(String(wrong)).toContain("TARGETS[2].TOKEN");
    expect(server.requests.filter((r) => r.path === "/login")).toEqual([]);
    const reader = target(server, { username: "reader", password: "reader-pass" });
    await expect(reader.checkAccess()).rejects.toThrow(/answered 403 .*not an admin/);
    await expect(reader.scan("/audiobooks/A", BOOKS)).rejects.toBeInstanceOf(TargetAuthError);
    expect(server.updates).toEqual([]);
  });

  it("proves for doctor that the credential may send watcher updates, sending an empty one that looks at nothing", async () => {
    const server = await abs();
    await expect(target(server).checkAccess()).resolves.toContain("admin");
    expect(server.updates).toEqual([]);
  });

  it("retries while the server is down or does not answer in time", async () => {
    const server = await abs();
    await server.setAvailability("down");
    const down = await target(server)
      .scan("/audiobooks/A", BOOKS)
      .catch((e: unknown) => e);
    expect(down).toBeInstanceOf(TargetUnavailableError);
    expect(String(down)).toContain("answered 503");
    await server.setAvailability("hang");
    await expect(target(server, { token: API_TOKEN }, 200).scan("/audiobooks/A", BOOKS)).rejects.toThrow("did not answer within 200 ms");
    await server.setAvailability("up");
    await target(server).scan("/audiobooks/A", BOOKS);
    expect(server.updates).toHaveLength(1);
  });
});
