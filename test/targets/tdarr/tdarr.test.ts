import { afterEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetFatalError, TargetUnavailableError } from "../../../src/domain.js";
import { ManualClock } from "../../../src/lib/clock.js";
import { CATCH_ALL_LIBRARY } from "../../../src/targets/catch-all.js";
import { TdarrApiClient } from "../../../src/targets/tdarr/api.js";
import { TdarrTarget } from "../../../src/targets/tdarr/tdarr-target.js";
import { startFakeTdarr, type FakeTdarr } from "../../fakes/tdarr.js";

const KEY = "tapi_secret_key_4321";
const servers: FakeTdarr[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function tdarr(apiKey?: string): Promise<FakeTdarr> {
  const server = await startFakeTdarr({ apiKey, libraries: ["lib-tv"] });
  servers.push(server);
  return server;
}

function target(server: FakeTdarr, options: { apiKey?: string; libraryId?: string; timeoutMs?: number } = {}): TdarrTarget {
  const api = new TdarrApiClient({
    baseUrl: `${server.url}/`,
    apiKey: options.apiKey ?? server.apiKey ?? "",
    urlKey: "TARGETS[1].URL",
    credentialKey: "TARGETS[1].TOKEN",
    timeoutMs: options.timeoutMs ?? 5_000,
  });
  return new TdarrTarget({ name: "tdarr", api, libraryId: options.libraryId ?? "lib-tv", clock: new ManualClock() });
}

describe("the Tdarr target", () => {
  it("asks the library to look at the named files now, as its folder watcher would", async () => {
    const server = await tdarr(KEY);
    const files = ["/media/TV/Show/Season 1/Show - S01E01.mkv", "/media/TV/Show/Season 1/Show - S01E02.mkv"];
    await target(server).scan("/media/TV/Show/Season 1", CATCH_ALL_LIBRARY, files);
    expect(server.scans).toEqual([{ dbID: "lib-tv", arrayOrPath: files, mode: "scanFolderWatcher" }]);
  });

  it("sends the folder when the request named no file", async () => {
    const server = await tdarr();
    await target(server).scan("/media/TV/Show", CATCH_ALL_LIBRARY);
    expect(server.scans).toEqual([{ dbID: "lib-tv", arrayOrPath: ["/media/TV/Show"], mode: "scanFolderWatcher" }]);
  });

  it("asks for Tdarr's status when its library is listed, so /health tells whether Tdarr answers", async () => {
    const server = await tdarr(KEY);
    const t = target(server);
    expect(t.libraries.knownLibraries()).toEqual([CATCH_ALL_LIBRARY]);
    await t.libraries.refreshLibraries();
    expect([t.contact().state, server.requests]).toEqual(["ok", [{ method: "GET", path: "/api/v2/status" }]]);
    await server.setAvailability("down");
    const later = target(server);
    await later.libraries.refreshLibraries();
    expect(later.contact().state).toBe("unavailable");
    expect(later.libraries.knownLibraries()).toEqual([CATCH_ALL_LIBRARY]);
  });

  it("proves for doctor that Tdarr answers and takes the key", async () => {
    const server = await tdarr(KEY);
    await expect(target(server).checkAccess()).resolves.toBe("Tdarr 2.58.02 answers");
  });

  it("stops on a wrong key, naming the key to check and never the key itself", async () => {
    const server = await tdarr(KEY);
    const error = await target(server, { apiKey: "tapi_wrong_key_9999" })
      .scan("/media/TV/Show", CATCH_ALL_LIBRARY)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetAuthError);
    expect(String(error)).toContain("TARGETS[1].TOKEN");
    expect(String(error)).not.toContain("tapi_wrong_key_9999");
    expect(server.scans).toEqual([]);
  });

  it("gives up on a library Tdarr does not have (400), and retries while Tdarr is down", async () => {
    const server = await tdarr();
    await expect(target(server, { libraryId: "nope" }).scan("/m/A", CATCH_ALL_LIBRARY)).rejects.toBeInstanceOf(TargetFatalError);
    await server.setAvailability("down");
    await expect(target(server).scan("/m/A", CATCH_ALL_LIBRARY)).rejects.toBeInstanceOf(TargetUnavailableError);
    await server.setAvailability("hang");
    await expect(target(server, { timeoutMs: 200 }).scan("/m/A", CATCH_ALL_LIBRARY)).rejects.toThrow("did not answer within 200 ms");
  });
});
