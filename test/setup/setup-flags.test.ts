import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config/parse.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { runCli, runCliChild } from "../helpers/cli.js";
import { startServiceOn, waitFor } from "../helpers/service.js";
import { startSetupWorld, setupFlags, type SetupWorld } from "./setup-world.js";

let world: SetupWorld | undefined;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await world?.close();
  world = undefined;
});

async function setup(w: SetupWorld, extra: string[] = ["--yes"]) {
  const result = await runCli(["--install-dir", w.installDir, "setup", ...setupFlags(w), ...extra]);
  return { ...result, output: result.stdout + result.stderr };
}

describe("scanarr setup with flags (no terminal)", () => {
  it("derives the mappings, writes the config in its own form, connects both apps and passes doctor", async () => {
    world = await startSetupWorld();
    const { code, output } = await setup(world);
    expect(output).toContain("3 of 3 series (Sonarr) under /tv/ are under /data/TV/ in plex (TV Shows)");
    expect(output).toContain("2 of 2 movies (Radarr) under /movies/ are under /media/Movies/ in jellyfin (Movies)");
    const config = JSON.parse(readFileSync(world.configFile, "utf8")) as Record<string, unknown>;
    expect(config.PLEX_LOCAL_URL).toBe(world.plex.url);
    expect(config.PLEX_TOKEN).toBe(world.plex.token);
    expect(config.SERVER_PATH_MAPPINGS).toEqual({ "/data/TV/": ["/tv/"], "/data/Movies/": ["/movies/"] });
    expect(config.TARGETS).toEqual([
      {
        TYPE: "jellyfin",
        NAME: "jellyfin",
        URL: world.jellyfin.url,
        TOKEN: world.jellyfin.token,
        PATH_MAPPINGS: { "/media/TV-Shows/": ["/data/TV/"], "/media/Movies/": ["/data/Movies/"] },
      },
    ]);
    expect(config.SERVER_PORT).toBe(world.port);
    expect(statSync(world.configFile).mode & 0o777).toBe(0o600);
    expect(world.sonarr.notifications).toHaveLength(1);
    expect(world.radarr.notifications).toHaveLength(1);
    expect(output).toContain("saved without the app's test (scanarr is not running)");
    expect(config.ARR_APPS).toEqual([
      { TYPE: "sonarr", URL: world.sonarr.url, API_KEY: world.sonarr.apiKey },
      { TYPE: "radarr", URL: world.radarr.url, API_KEY: world.radarr.apiKey },
    ]);
    expect(output).toMatch(/all \d+ checks passed/);
    expect(output).toMatch(/Next: (npx )?\S*scanarr\S* --install-dir \S+ serve/);
    for (const secret of [world.plex.token, world.jellyfin.token, world.sonarr.apiKey, world.radarr.apiKey])
      expect(output).not.toContain(secret);
    expect(code, output).toBe(0);

    // What setup connected, `connect --list` finds again: no flag, no terminal.
    const listed = await runCliChild(["--install-dir", world.installDir, "connect", "--list"]);
    expect(listed.stderr).toBe("");
    expect(listed.stdout).toContain(`Sonarr 4.0.19.2979 at ${world.sonarr.url}: 1 connection(s) to this scanarr`);
    expect(listed.stdout).toContain(`Radarr 4.0.19.2979 at ${world.radarr.url}: 1 connection(s) to this scanarr`);
    for (const key of [world.sonarr.apiKey, world.radarr.apiKey]) expect(listed.stdout).not.toContain(key);
    expect(listed.exitCode).toBe(0);
  });

  it("leaves a download webhook from the fake Sonarr to reach Plex and Jellyfin, each in its own path form; a second run changes nothing", async () => {
    world = await startSetupWorld();
    expect((await setup(world)).code).toBe(0);
    const written = readFileSync(world.configFile, "utf8");
    const paths = resolveInstallPaths(world.installDir);
    const { config } = await loadConfig(paths.configFile, { create: false, require: ["server", "plex"] });
    const running = await startServiceOn(config, paths);
    stops.push(() => running.service.stop());

    const [delivery] = await world.sonarr.sendDownload(0, "The Expanse - S01E04.mkv");
    expect(delivery?.status).toBe(202);
    await world.plex.waitForRefreshes(1);
    expect(world.plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV/The Expanse" }]);
    // Jellyfin knows the series' folder: its item is refreshed.
    await world.jellyfin.waitForRefreshes(1);
    expect(world.jellyfin.items.refreshes.map((r) => r.path)).toEqual(["/media/TV-Shows/The Expanse"]);

    // Without --plex-* flags and without a terminal, the configured Plex is checked and kept.
    const again = await runCli(["--install-dir", world.installDir, "setup", ...setupFlags(world).slice(4), "--yes"]).then((r) => ({
      ...r,
      output: r.stdout + r.stderr,
    }));
    expect(again.output).toContain(`Plex at ${world.plex.url}: 4 libraries`);
    expect(again.output).toContain(`Nothing to change in ${world.configFile}.`);
    expect(again.output).toContain("Sonarr: connection unchanged (id 1, tested by the app)");
    expect(readFileSync(world.configFile, "utf8")).toBe(written);
    expect(world.sonarr.notifications).toHaveLength(1);
    expect(again.code, again.output).toBe(0);
    await waitFor(
      () => world?.sonarr.deliveries.some((d) => d.eventType === "Test" && d.status >= 200 && d.status < 300) ?? false,
      5_000,
      "the app's test",
    );
  });

  it("signs in with --plex-pin without a terminal, keeping the owned server's own token", async () => {
    world = await startSetupWorld({ signInAfterPolls: 1 });
    const flags = setupFlags(world).slice(4);
    const result = await runCli(["--install-dir", world.installDir, "setup", "--plex-pin", ...flags, "--yes"], {
      PLEX_TV_URL: world.plexTv.url,
    });
    expect(result.stdout).toContain("open https://plex.tv/link and enter this code");
    const config = JSON.parse(readFileSync(world.configFile, "utf8")) as Record<string, unknown>;
    expect(config.PLEX_TOKEN).toBe(world.plex.token);
    expect(config.PLEX_TOKEN).not.toBe(world.plexTv.accountToken);
    expect(result.stdout + result.stderr).not.toContain(world.plexTv.accountToken);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it("shows the app's reasons and saves nothing when its test of the webhook URL fails", async () => {
    world = await startSetupWorld();
    expect((await setup(world)).code).toBe(0);
    const paths = resolveInstallPaths(world.installDir);
    const { config } = await loadConfig(paths.configFile, { create: false, require: ["server", "plex"] });
    const running = await startServiceOn(config, paths);
    stops.push(() => running.service.stop());
    const before = JSON.stringify(world.sonarr.notifications);
    const { ARR_APPS: _remembered, ...forgotten } = JSON.parse(readFileSync(world.configFile, "utf8")) as Record<string, unknown>;
    writeFileSync(world.configFile, JSON.stringify(forgotten, null, 2), { mode: 0o600 });
    // scanarr answers on 127.0.0.1, but the apps are told a host where nothing listens.
    const result = await setup(world, ["--yes", "--host", "127.0.0.2"]);
    expect(JSON.parse(readFileSync(world.configFile, "utf8")).ARR_APPS, "a failed connection is not remembered").toBeUndefined();
    expect(result.output).toMatch(/Sonarr: the app's test of http:\/\/127\.0\.0\.2:\d+\/\*\*\*\* failed, nothing saved:\n {2}- /);
    expect(result.output).not.toContain(config.SERVER_PASS);
    expect(JSON.stringify(world.sonarr.notifications)).toBe(before);
    expect(result.code).toBe(1);
  });

  it("writes the starter config with the found values when there is no config file yet", async () => {
    world = await startSetupWorld();
    rmSync(world.configFile);
    const { code, output } = await setup(world, ["--yes", "--host", "127.0.0.1"]);
    expect(output).toContain(`${world.configFile} does not exist yet; it will be:`);
    const config = JSON.parse(readFileSync(world.configFile, "utf8")) as Record<string, unknown>;
    expect(config._README).toMatch(/^scanarr config\./);
    expect(config.SERVER_PASS).toMatch(/^[A-Za-z0-9._~-]{32,}$/);
    expect(output).not.toContain(String(config.SERVER_PASS));
    // The starter's example mappings give way to the found ones.
    expect(config.SERVER_PATH_MAPPINGS).toEqual({ "/data/TV/": ["/tv/"], "/data/Movies/": ["/movies/"] });
    // The starter has no ARR_APPS: the connected apps add it.
    expect((config.ARR_APPS as Array<{ TYPE: string }>).map((a) => a.TYPE)).toEqual(["sonarr", "radarr"]);
    expect(statSync(world.configFile).mode & 0o777).toBe(0o600);
    expect(output).toContain("Wrote");
    // Doctor ran on the new file (its listen check depends on whether port 3468 is free here).
    expect(output).toMatch(/pass {2}target jellyfin/);
    expect(code === 0 || /FAIL {2}listen/.test(output), output).toBe(true);
  });

  it("writes a new file named by --config, and refuses an invalid one with exit 2, changing nothing", async () => {
    world = await startSetupWorld();
    const file = path.join(world.installDir, "elsewhere.json");
    const made = await runCli(["--config", file, "setup", ...setupFlags(world), "--host", "127.0.0.1", "--yes"]);
    expect(made.stdout).toContain(`${file} does not exist yet; it will be:`);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ PLEX_TOKEN: world.plex.token });
    writeFileSync(file, '{"SERVER_PORT": True}');
    const invalid = await runCli(["--config", file, "setup", ...setupFlags(world), "--yes"]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain("invalid JSON at line 1, column 17");
    expect(readFileSync(file, "utf8")).toBe('{"SERVER_PORT": True}');
  });

  it("names the app and the key when an API key is wrong, and writes nothing", async () => {
    world = await startSetupWorld();
    const before = readFileSync(world.configFile, "utf8");
    const flags = setupFlags(world).map((f) => (f.startsWith(world?.sonarr.url ?? "-") ? `${world?.sonarr.url},wrong-key-0000` : f));
    const result = await runCli(["--install-dir", world.installDir, "setup", ...flags, "--yes"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: The \*arr app at http:\/\/127\.0\.0\.1:\d+ refused the API key \(401\)/);
    expect(result.stderr).not.toContain("wrong-key-0000");
    expect(readFileSync(world.configFile, "utf8")).toBe(before);
  });

  it("names the address tried when Plex does not answer, and writes nothing", async () => {
    world = await startSetupWorld();
    const before = readFileSync(world.configFile, "utf8");
    await world.plex.close();
    const result = await setup(world);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Plex check failed: Plex at ${world.plex.url}`);
    expect(readFileSync(world.configFile, "utf8")).toBe(before);
  });

  it("exits 2 naming the flags when there is no terminal and no Plex answer, and when the write is not confirmed", async () => {
    world = await startSetupWorld();
    const before = readFileSync(world.configFile, "utf8");
    const none = await runCli(["--install-dir", world.installDir, "setup"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("pass --plex-url and --plex-token, or --plex-pin");
    const unconfirmed = await setup(world, []);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('no terminal to ask "Write');
    expect(unconfirmed.stderr).toContain("pass --yes");
    expect(readFileSync(world.configFile, "utf8")).toBe(before);
    const bad = await runCli(["--install-dir", world.installDir, "setup", "--arr", "http://sonarr:8989", "--plex-pin"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--arr takes <url>,<api key>");
  });
});
