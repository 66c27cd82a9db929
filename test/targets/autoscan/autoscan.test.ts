import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetUnavailableError } from "../../../src/domain.js";
import { ManualClock } from "../../../src/lib/clock.js";
import { findLibrariesFor } from "../../../src/paths/index.js";
import { AutoscanApiClient } from "../../../src/targets/autoscan/api.js";
import { AutoscanTarget, CATCH_ALL_LIBRARY } from "../../../src/targets/autoscan/autoscan-target.js";
import { startFakeAutoscan, type FakeAutoscan } from "../../fakes/autoscan.js";

const USER = "scanarr";
const PASSWORD = "chain-password-9876";
let autoscan: FakeAutoscan;
let clock: ManualClock;

beforeEach(async () => {
  autoscan = await startFakeAutoscan({ username: USER, password: PASSWORD });
  clock = new ManualClock();
});

afterEach(async () => {
  await autoscan.close();
});

function client(options: { password?: string; baseUrl?: string; username?: string; timeoutMs?: number } = {}): AutoscanApiClient {
  return new AutoscanApiClient({
    baseUrl: options.baseUrl ?? autoscan.url,
    username: options.username ?? USER,
    password: options.password ?? PASSWORD,
    urlKey: "TARGETS[2].URL",
    credentialKey: "TARGETS[2].USERNAME and TARGETS[2].PASSWORD",
    timeoutMs: options.timeoutMs ?? 5_000,
  });
}

function target(api = client()): AutoscanTarget {
  return new AutoscanTarget({ name: "autoscan", api, clock, ttlMs: 60_000 });
}

describe("autoscan chaining", () => {
  it("sends the folder to the manual trigger with Basic auth", async () => {
    await target().scan("/data/TV/Show/Season 1", CATCH_ALL_LIBRARY);
    expect(autoscan.triggers).toEqual([["/data/TV/Show/Season 1"]]);
    expect(autoscan.requests).toEqual([{ method: "POST", url: "/triggers/manual?dir=%2Fdata%2FTV%2FShow%2FSeason+1", authorized: true }]);
  });

  it("carries several folders in one call", async () => {
    await client().trigger(["/data/A", "/data/B & C"]);
    expect(autoscan.triggers).toEqual([["/data/A", "/data/B & C"]]);
  });

  it("sends the folder, not the named files: autoscan scans folders", async () => {
    await target().scan("/data/Movies/Heat (1995)", CATCH_ALL_LIBRARY, ["/data/Movies/Heat (1995)/Heat.mkv"]);
    expect(autoscan.triggers).toEqual([["/data/Movies/Heat (1995)"]]);
  });

  it("accepts a URL that already ends in /triggers/manual", async () => {
    await client({ baseUrl: `${autoscan.url}/triggers/manual` }).trigger(["/data/A"]);
    expect(autoscan.requests[0]?.url).toBe("/triggers/manual?dir=%2Fdata%2FA");
  });

  it("has one library holding every absolute folder, known before any call", () => {
    const t = target();
    expect(t.libraries.knownLibraries()).toEqual([CATCH_ALL_LIBRARY]);
    for (const folder of ["/data/TV/Show", "/", "D:\\Media\\TV", "\\\\nas\\media\\Movies"]) {
      expect(findLibrariesFor(folder, [CATCH_ALL_LIBRARY]), folder).toEqual([CATCH_ALL_LIBRARY]);
    }
    expect(autoscan.requests).toEqual([]);
  });

  it("checks availability with HEAD when listing libraries, once per TTL", async () => {
    const t = target();
    expect(await t.listLibraries()).toEqual([CATCH_ALL_LIBRARY]);
    await t.listLibraries();
    expect(autoscan.requests).toEqual([{ method: "HEAD", url: "/triggers/manual", authorized: true }]);
    clock.advance(60_000);
    await t.listLibraries();
    expect(autoscan.requests.filter((r) => r.method === "HEAD")).toHaveLength(2);
  });

  it("reports wrong credentials as TargetAuthError, without the password", async () => {
    const error = await target(client({ password: "wrong-password-1234" }))
      .listLibraries()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetAuthError);
    expect((error as Error).message).toContain("TARGETS[2].USERNAME and TARGETS[2].PASSWORD");
    expect((error as Error).message).not.toContain("wrong-password-1234");
  });

  it("reports a trigger that is down as unavailable, and checks availability again after a failed scan", async () => {
    const t = target();
    await t.listLibraries();
    await autoscan.setAvailability("refuse");
    await expect(t.scan("/data/A", CATCH_ALL_LIBRARY)).rejects.toBeInstanceOf(TargetUnavailableError);
    await expect(t.listLibraries()).rejects.toBeInstanceOf(TargetUnavailableError);
    await autoscan.setAvailability("up");
    await t.listLibraries();
    await t.scan("/data/A", CATCH_ALL_LIBRARY);
    expect(autoscan.triggers).toEqual([["/data/A"]]);
  });

  it("times out a trigger that never answers", async () => {
    await autoscan.setAvailability("hang");
    await expect(target(client({ timeoutMs: 300 })).scan("/data/A", CATCH_ALL_LIBRARY)).rejects.toThrow("did not answer within 300 ms");
  });

  it("sends no Authorization header when no credentials are configured", async () => {
    const open = await startFakeAutoscan();
    try {
      const api = new AutoscanApiClient({ baseUrl: open.url, username: "", password: "", urlKey: "URL", credentialKey: "C" });
      await api.available();
      await api.trigger(["/x"]);
      expect(open.triggers).toEqual([["/x"]]);
    } finally {
      await open.close();
    }
  });
});
