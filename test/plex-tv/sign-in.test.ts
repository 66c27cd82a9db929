import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { installationClientId } from "../../src/plex-tv/client-id.js";
import { PlexTvClient } from "../../src/plex-tv/client.js";
import { reachServer, ownedServers } from "../../src/plex-tv/servers.js";
import { PinExpiredError, waitForSignIn } from "../../src/plex-tv/sign-in.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { accountResources, startFakePlexTv, type FakePlexTv } from "../fakes/plex-tv.js";
import { startLoopback } from "../fakes/loopback.js";

let plexTv: FakePlexTv | undefined;
let plex: FakePlex | undefined;
afterEach(async () => {
  await plexTv?.close();
  await plex?.close();
  plexTv = plex = undefined;
});

const wait = (deadlineMs = 5_000) => ({
  intervalMs: 1,
  deadlineMs,
  now: () => Date.now(),
  sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  signal: new AbortController().signal,
});

function client(url: string, clientId = "install-1"): PlexTvClient {
  return new PlexTvClient({ baseUrl: url, clientId, version: "0.1.0" });
}

describe("Plex sign-in with a PIN", () => {
  it("creates a 4-character PIN and gets the account token once it is signed in", async () => {
    plexTv = await startFakePlexTv({ signInAfterPolls: 3 });
    const tv = client(plexTv.url);
    const pin = await tv.createPin();
    expect(pin.code).toMatch(/^[A-Z0-9]{4}$/);
    expect(tv.authUrl(pin)).toMatch(/^https:\/\/app\.plex\.tv\/auth#\?clientID=install-1&code=[A-Z0-9]{4}&/);
    expect(await waitForSignIn(tv, pin, wait())).toBe(plexTv.accountToken);
    const polls = plexTv.requests.filter((r) => r.url.startsWith(`/api/v2/pins/${pin.id}`));
    expect(polls).toHaveLength(3);
    expect(new Set(plexTv.requests.map((r) => r.clientId))).toEqual(new Set(["install-1"]));
  });

  it("says the code expired when plex.tv forgets the PIN, and when the deadline passes", async () => {
    plexTv = await startFakePlexTv({ expireAfterPolls: 2 });
    const tv = client(plexTv.url);
    await expect(waitForSignIn(tv, await tv.createPin(), wait())).rejects.toThrow(PinExpiredError);
    await plexTv.close();
    plexTv = await startFakePlexTv();
    const again = client(plexTv.url);
    await expect(waitForSignIn(again, await again.createPin(), wait(20))).rejects.toThrow(/expired .* run `scanarr setup` again/);
  });

  it("does not find a PIN made under another client identifier", async () => {
    plexTv = await startFakePlexTv({ signInAfterPolls: 1 });
    const pin = await client(plexTv.url, "install-1").createPin();
    await expect(waitForSignIn(client(plexTv.url, "install-2"), pin, wait())).rejects.toThrow(PinExpiredError);
  });

  it("refuses the resource list without the account token, naming no token", async () => {
    plexTv = await startFakePlexTv();
    await expect(client(plexTv.url).listResources("wrong-token-xyz")).rejects.toThrow(/plex\.tv .*401/);
    await expect(client(plexTv.url).listResources("wrong-token-xyz")).rejects.not.toThrow(/wrong-token-xyz/);
  });
});

describe("choosing the server", () => {
  it("keeps owned servers only and reaches the first address that answers as that server, local first, relay last", async () => {
    plex = await startFakePlex();
    const dead = await startLoopback(() => undefined);
    await dead.setAvailability("refuse");
    plexTv = await startFakePlexTv({ resources: accountResources(plex, dead.url) });
    const servers = ownedServers(await client(plexTv.url).listResources(plexTv.accountToken));
    expect(servers.map((s) => s.name)).toEqual(["home"]);
    const reached = await reachServer(servers[0] as (typeof servers)[0], 1_000);
    expect(reached.url).toBe(plex.url);
    expect(reached.token).toBe(plex.token);
    expect(reached.libraries.map((l) => l.title)).toContain("TV Shows");
  });

  it("names every address tried when none answers", async () => {
    const dead = await startLoopback(() => undefined);
    await dead.setAvailability("refuse");
    const server = {
      name: "home",
      clientIdentifier: "x",
      provides: ["server"],
      owned: true,
      accessToken: "t0ken-secret",
      connections: [{ uri: dead.url, local: true, relay: false }],
    };
    const error = await reachServer(server, 500).catch((e: unknown) => e as Error);
    expect(String(error)).toContain(`no address of Plex server "home" answered:\n  ${dead.url}`);
    expect(String(error)).not.toContain("t0ken-secret");
  });
});

describe("the installation's client identifier", () => {
  it("is made once and read back the same, in a 0600 file under the data folder", async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "scanarr-id-")), "data");
    const first = await installationClientId(dir);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await installationClientId(dir)).toBe(first);
    expect(statSync(path.join(dir, "plex-tv.json")).mode & 0o777).toBe(0o600);
  });
});
