import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeArr, type FakeArr } from "../fakes/arr.js";
import { hasPython, repoRoot, runInPty, type PtyStep } from "../rclone/pty.js";
import { startSetupWorld, type SetupWorld } from "./setup-world.js";

let world: SetupWorld | undefined;
let lidarr: FakeArr | undefined;
afterEach(async () => {
  await world?.close();
  await lidarr?.close();
  world = undefined;
  lidarr = undefined;
});

function setupCommand(w: SetupWorld, args: string[] = []): string[] {
  return ["node", "--import", "tsx", path.join(repoRoot, "src/cli/main.ts"), "--install-dir", w.installDir, "setup", ...args];
}

describe.skipIf(!hasPython)("scanarr setup in a terminal", () => {
  it("signs in with a PIN, adds Jellyfin and three apps, asks only where an empty library goes, shows the diff, writes and connects", async () => {
    world = await startSetupWorld({ signInAfterPolls: 2 });
    const w = world;
    // A Lidarr with nothing in it yet: nothing to match, so the user is asked, with the libraries' roots to pick from.
    lidarr = await startFakeArr({ kind: "lidarr", items: [] });
    const steps: PtyStep[] = [
      ["how should scanarr reach your server?", ""],
      ["Do you also run Jellyfin?", "y"],
      ["Jellyfin URL", w.jellyfin.url],
      ["Jellyfin API key", w.jellyfin.token],
      ["Do you also run Emby?", "n"],
      ["Add a Sonarr, Radarr, Lidarr or Readarr app?", "y"],
      ["App URL", w.sonarr.url],
      ["API key", w.sonarr.apiKey],
      ["Add another *arr app?", "y"],
      ["App URL", w.radarr.url],
      ["API key", w.radarr.apiKey],
      ["Add another *arr app?", "y"],
      ["App URL", lidarr.url],
      ["API key", lidarr.apiKey],
      ["Add another *arr app?", "n"],
      ["Where does plex see Lidarr's /music/?", ""],
      // Up from the first choice wraps to the last: "leave it unmapped".
      ["Where does jellyfin see Lidarr's /music/?", "\u001b[A"],
      ["Write ", "y"],
      // All three are ticked; down twice and space unticks Lidarr.
      ["Connect these apps to scanarr?", "\u001b[B\u001b[B "],
    ];
    const { output, status } = await runInPty(steps, setupCommand(w), { PLEX_TV_URL: w.plexTv.url });
    expect(output).toContain("open https://plex.tv/link and enter this code");
    expect(output).toMatch(/\n {4}[# ]{5,}/);
    expect(output).toContain("https://app.plex.tv/auth#?clientID=");
    expect(output).toContain(`Plex "home" answers at ${w.plex.url}; its own token will be used`);
    expect(output).toContain("3 of 3 series (Sonarr) under /tv/ are under /data/TV/ in plex (TV Shows)");
    expect(output).toMatch(/\+ {4}"\/data\/TV\/": \[/);
    expect(output).toMatch(/all \d+ checks passed/);
    const config = JSON.parse(readFileSync(w.configFile, "utf8")) as Record<string, unknown>;
    expect(config.PLEX_LOCAL_URL).toBe(w.plex.url);
    expect(config.PLEX_TOKEN).toBe(w.plex.token);
    expect(output).toContain("Lidarr's /music/ holds no artists yet");
    expect(config.SERVER_PATH_MAPPINGS).toEqual({ "/data/TV/": ["/tv/"], "/data/Movies/": ["/movies/"], "/data/Music/": ["/music/"] });
    expect((config.TARGETS as Array<{ PATH_MAPPINGS: unknown }>)[0]?.PATH_MAPPINGS).toEqual({
      "/media/TV-Shows/": ["/data/TV/"],
      "/media/Movies/": ["/data/Movies/"],
    });
    expect(lidarr.notifications).toHaveLength(0);
    expect(w.sonarr.notifications).toHaveLength(1);
    expect(w.radarr.notifications).toHaveLength(1);
    for (const secret of [w.plex.token, w.plexTv.accountToken, w.jellyfin.token, w.sonarr.apiKey]) expect(output).not.toContain(secret);
    // The same client identifier on every call to plex.tv, kept under data/.
    const ids = new Set(w.plexTv.requests.map((r) => r.clientId));
    expect(ids.size).toBe(1);
    expect(readFileSync(path.join(w.installDir, "data", "plex-tv.json"), "utf8")).toContain([...ids][0]);
    expect(status, output).toBe(0);
  });

  it("asks again after a refused token, then a second run keeps everything and writes nothing", async () => {
    world = await startSetupWorld();
    const w = world;
    const noMore: PtyStep[] = [
      ["Do you also run Jellyfin?", "n"],
      ["Do you also run Emby?", "n"],
      ["Add a Sonarr, Radarr, Lidarr or Readarr app?", "n"],
    ];
    const first = await runInPty(
      [
        // Down once: "Type the server's URL and token".
        ["how should scanarr reach your server?", "\u001b[B"],
        ["Plex server URL", w.plex.url],
        ["Plex token", "not-the-token"],
        ["Type the Plex URL and token again?", "y"],
        ["Plex server URL", w.plex.url],
        ["Plex token", w.plex.token],
        ...noMore,
        ["Write ", "y"],
      ],
      setupCommand(w),
    );
    expect(first.output).toMatch(/Plex check failed: Plex at http:\/\/127\.0\.0\.1:\d+ refused the token \(401\)/);
    expect(first.output).not.toContain("not-the-token");
    expect(first.status, first.output).toBe(0);
    const written = readFileSync(w.configFile, "utf8");
    expect(JSON.parse(written)).toMatchObject({ PLEX_LOCAL_URL: w.plex.url, PLEX_TOKEN: w.plex.token });

    const second = await runInPty([[`Keep ${w.plex.url} and its token`, ""], ...noMore], setupCommand(w));
    expect(second.output).toContain(`Nothing to change in ${w.configFile}.`);
    expect(second.status, second.output).toBe(0);
    expect(readFileSync(w.configFile, "utf8")).toBe(written);
  });

  it("writes nothing and exits 130 on Ctrl-C", async () => {
    world = await startSetupWorld();
    const before = readFileSync(world.configFile, "utf8");
    const { output, status } = await runInPty([["how should scanarr reach your server?", null]], setupCommand(world), {
      PLEX_TV_URL: world.plexTv.url,
    });
    expect(status, output).toBe(130);
    expect(output).toContain("set-up interrupted; nothing was written");
    expect(readFileSync(world.configFile, "utf8")).toBe(before);
  });

  it("stops waiting for the Plex sign-in on Ctrl-C: exit 130, nothing written", async () => {
    world = await startSetupWorld();
    const before = readFileSync(world.configFile, "utf8");
    const { output, status } = await runInPty(
      [
        ["how should scanarr reach your server?", ""],
        ["Waiting for the sign-in", null],
      ],
      setupCommand(world),
      { PLEX_TV_URL: world.plexTv.url },
    );
    expect(status, output).toBe(130);
    expect(output).toContain("interrupted while waiting for the Plex sign-in; nothing was written");
    expect(status, output).toBe(130);
    expect(readFileSync(world.configFile, "utf8")).toBe(before);
  });

  it("asks to start again when the PIN expires, writing nothing", async () => {
    world = await startSetupWorld({ expireAfterPolls: 1 });
    const before = readFileSync(world.configFile, "utf8");
    const { output, status } = await runInPty([["how should scanarr reach your server?", ""]], setupCommand(world), {
      PLEX_TV_URL: world.plexTv.url,
    });
    expect(output).toContain("the Plex sign-in code expired before it was entered; run `scanarr setup` again for a new code");
    expect(status, output).toBe(1);
    expect(readFileSync(world.configFile, "utf8")).toBe(before);
  });
});
