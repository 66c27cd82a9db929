import { afterEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetFatalError, TargetNothingToDoError, TargetUnavailableError } from "../../../src/domain.js";
import { ManualClock } from "../../../src/lib/clock.js";
import { FileFlowsApiClient } from "../../../src/targets/fileflows/api.js";
import { FileFlowsTarget } from "../../../src/targets/fileflows/fileflows-target.js";
import { startFakeFileFlows, type FakeFileFlows, type FakeFileFlowsOptions, type FakeFlowLibrary } from "../../fakes/fileflows.js";

const MOVIES: FakeFlowLibrary = {
  Uid: "lib-movies",
  Name: "Movies",
  Enabled: true,
  Path: "/media/movies",
  Flow: { Uid: "flow-h265", Name: "H265" },
};
const TV: FakeFlowLibrary = { Uid: "lib-tv", Name: "TV", Enabled: false, Path: "/media/tv", Flow: { Uid: "flow-tv", Name: "TV" } };
const MUSIC: FakeFlowLibrary = { Uid: "lib-music", Name: "Music", Enabled: true, Path: "/media/music", Flow: null };
const KNOWN = "/media/movies/Heat (1995)/Heat (1995).mkv";

const servers: FakeFileFlows[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function fileflows(options: FakeFileFlowsOptions = {}): Promise<FakeFileFlows> {
  const files = { [KNOWN]: { Uid: "file-heat", Name: "Heat (1995).mkv", FlowUid: "flow-h265" } };
  const server = await startFakeFileFlows({ libraries: [MOVIES, TV, MUSIC], files, ...options });
  servers.push(server);
  return server;
}

function target(server: FakeFileFlows, timeoutMs = 5_000): FileFlowsTarget {
  const api = new FileFlowsApiClient({ baseUrl: `${server.url}/`, urlKey: "TARGETS[3].URL", timeoutMs });
  return new FileFlowsTarget({ name: "fileflows", api, clock: new ManualClock() });
}

async function libraryOf(t: FileFlowsTarget, folder: string) {
  const [library] = await t.libraries.librariesFor(folder);
  if (!library) throw new Error(`no library holds ${folder}`);
  return library;
}

describe("the FileFlows target", () => {
  it("reprocesses a file FileFlows knows and hands a new one to its library's flow", async () => {
    const server = await fileflows();
    const t = target(server);
    const folder = "/media/movies/Heat (1995)";
    const fresh = `${folder}/Heat (1995) - extra.mkv`;
    await t.scan(folder, await libraryOf(t, folder), [KNOWN, fresh]);
    expect(server.searches).toEqual([KNOWN, fresh]);
    expect(server.reprocessed).toEqual([["file-heat"]]);
    expect(server.added).toEqual([{ FlowUid: "flow-h265", Files: [fresh] }]);
  });

  it("finds the library by its Path only, so a folder outside every library (or a sibling with a longer name) has none", async () => {
    const t = target(await fileflows());
    expect((await libraryOf(t, "/media/movies/Heat (1995)")).id).toBe("lib-movies");
    expect(await t.libraries.librariesFor("/media/movies 4K/Heat (1995)")).toEqual([]);
    expect(await t.libraries.librariesFor("/downloads/Heat (1995)")).toEqual([]);
  });

  it("has nothing to do for a folder alone: FileFlows watches its libraries", async () => {
    const server = await fileflows();
    const t = target(server);
    await expect(t.scan("/media/movies/Heat (1995)", await libraryOf(t, "/media/movies"))).rejects.toBeInstanceOf(TargetNothingToDoError);
    expect(server.requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("fails for good, sending nothing, when the library is disabled or has no flow, and doctor names both", async () => {
    const server = await fileflows();
    const t = target(server);
    const tv = t.scan("/media/tv/Show", await libraryOf(t, "/media/tv/Show"), ["/media/tv/Show/e1.mkv"]);
    await expect(tv).rejects.toThrow(new TargetFatalError('FileFlows library "TV" is disabled, so it takes no files; fix it in FileFlows'));
    const music = t.scan("/media/music/A", await libraryOf(t, "/media/music/A"), ["/media/music/A/1.flac"]);
    await expect(music).rejects.toThrow('FileFlows library "Music" has no flow');
    expect(server.requests.filter((r) => r.method === "POST")).toEqual([]);
    await expect(t.checkAccess()).resolves.toBe('1 of 3 libraries take files; "TV" is disabled, "Music" has no flow');
  });

  it("sends names with quotes, backslashes and any script verbatim in the JSON bodies", async () => {
    const server = await fileflows();
    const t = target(server);
    const folder = `/media/movies/L'Été "Meurtrier" \\ 東京 🎬`;
    await t.scan(folder, await libraryOf(t, folder), [`${folder}/x.mkv`]);
    expect(server.added).toEqual([{ FlowUid: "flow-h265", Files: [`${folder}/x.mkv`] }]);
  });

  it("stops when FileFlows' security refuses it (401), and retries while FileFlows is down or does not answer", async () => {
    const locked = await fileflows({ security: true });
    const refused = await target(locked)
      .libraries.fetchNow()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TargetAuthError);
    expect(String(refused)).toContain("FileFlows' security settings");
    const server = await fileflows();
    const t = target(server);
    const movies = await libraryOf(t, "/media/movies");
    await server.setAvailability("down");
    await expect(t.scan("/media/movies/A", movies, ["/media/movies/A/a.mkv"])).rejects.toBeInstanceOf(TargetUnavailableError);
    await server.setAvailability("hang");
    await expect(target(server, 200).libraries.fetchNow()).rejects.toThrow("did not answer within 200 ms");
    await server.setAvailability("up");
    await t.scan("/media/movies/A", movies, ["/media/movies/A/a.mkv"]);
    expect(server.added).toEqual([{ FlowUid: "flow-h265", Files: ["/media/movies/A/a.mkv"] }]);
  });
});
