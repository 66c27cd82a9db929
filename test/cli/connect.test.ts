import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { startFakeArr, type FakeArr, type FakeArrKind } from "../fakes/arr.js";
import { runCli, runCliChild, tempDir } from "../helpers/cli.js";
import { startTestService, TEST_PASS, type TestService } from "../helpers/service.js";

const closing: Array<{ close(): Promise<void> } | { stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((s) => ("close" in s ? s.close() : s.stop())));
});

/** An install whose config says scanarr listens on 127.0.0.1:`port` with the test pass. */
function installFor(port: number, overrides: Partial<Config> = {}): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "config"));
  const config = { ...defaultConfig(TEST_PASS), SERVER_IP: "127.0.0.1", SERVER_PORT: port, ...overrides };
  writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
  return dir;
}

async function fakeApp(kind: FakeArrKind, items?: string[]): Promise<FakeArr> {
  const app = await startFakeArr({ kind, ...(items ? { items } : {}) });
  closing.push(app);
  return app;
}

/** A port nothing listens on: scanarr "not running". */
const IDLE_PORT = 9;

describe("scanarr connect", () => {
  it("with scanarr running, the app's test passes, and a Download sent by the fake Sonarr reaches the fake Plex", async () => {
    const service: TestService = await startTestService();
    closing.push(service);
    const sonarr = await fakeApp("sonarr", ["/tv/The Expanse"]);
    const dir = installFor(service.service.port);
    const run = await runCli(["--install-dir", dir, "connect", "sonarr", "--url", sonarr.url, "--api-key", sonarr.apiKey]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Sonarr 4.0.19.2979 at ${sonarr.url}: created the Webhook connection "scanarr" (id 1)`);
    expect(run.stdout).toContain(`to http://127.0.0.1:${service.service.port}/<SERVER_PASS>`);
    expect(run.stdout).toContain(
      "events: On Download, On Upgrade, On Rename, On Series Delete, On Episode File Delete, On Episode File Delete For Upgrade",
    );
    expect(run.stdout).toContain("Sonarr's own test reached scanarr");
    expect(run.stdout).not.toContain(TEST_PASS);
    expect(sonarr.deliveries).toEqual([{ url: `${service.base}`, eventType: "Test", status: 200 }]);

    const [sent] = await sonarr.sendDownload(0, "Season 01/The Expanse - S01E04 - CQB.mkv");
    expect(sent?.status).toBe(202);
    await service.plex.waitForRefreshes(1);
    expect(service.plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV/The Expanse/Season 01" }]);
  });

  it("says unchanged on a second run and creates no duplicate", async () => {
    const radarr = await fakeApp("radarr");
    const dir = installFor(IDLE_PORT);
    const args = ["--install-dir", dir, "connect", "--url", radarr.url, "--api-key", radarr.apiKey];
    expect((await runCli(args)).code).toBe(0);
    const again = await runCli(args);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('unchanged: the Webhook connection "scanarr" (id 1)');
    expect(radarr.notifications).toHaveLength(1);
  });

  it("with scanarr not running, saves without the test and says so", async () => {
    const lidarr = await fakeApp("lidarr");
    const run = await runCli([
      "--install-dir",
      installFor(IDLE_PORT),
      "connect",
      "lidarr",
      "--url",
      lidarr.url,
      "--api-key",
      lidarr.apiKey,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Saved WITHOUT Lidarr's test: scanarr is not running");
    expect(lidarr.requests).toContain("POST /api/v1/notification?forceSave=true");
    expect(lidarr.deliveries).toEqual([]);
  });

  it("shows the app's reasons and changes nothing when its test fails", async () => {
    const service = await startTestService();
    closing.push(service);
    const readarr = await fakeApp("readarr");
    // The config's pass differs from the running service's: the app's test gets a 401 from scanarr.
    const dir = installFor(service.service.port, { SERVER_PASS: "another-pass-fedcba9876543210" });
    const run = await runCli(["--install-dir", dir, "connect", "--url", readarr.url, "--api-key", readarr.apiKey]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("refused to save the connection; nothing changed");
    expect(run.stderr).toMatch(/Url: Unable to send test message: HTTP request failed: \[401\]/);
    expect(run.stderr).not.toContain("another-pass-fedcba9876543210");
    expect(readarr.notifications).toEqual([]);
    expect(configOf(dir).ARR_APPS).toEqual([]);
  });

  it("names the app and the API key field on a wrong key, and the address on an unreachable URL", async () => {
    const sonarr = await fakeApp("sonarr");
    const dir = installFor(IDLE_PORT);
    const wrong = await runCli(["--install-dir", dir, "connect", "sonarr", "--url", sonarr.url, "--api-key", "not-the-key-0123456789"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`Sonarr at ${sonarr.url} refused the API key (401)`);
    expect(wrong.stderr).not.toContain("not-the-key-0123456789");
    await sonarr.setAvailability("refuse");
    const gone = await runCli(["--install-dir", dir, "connect", "--url", sonarr.url, "--api-key", sonarr.apiKey]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`at ${sonarr.url} is unreachable (ECONNREFUSED)`);
  });

  it("refuses an unknown app name and a URL with a query string (exit 2)", async () => {
    const dir = installFor(IDLE_PORT);
    const unknown = await runCli(["--install-dir", dir, "connect", "bazarr", "--url", "http://127.0.0.1:1", "--api-key", "k"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown app "bazarr"');
    const query = await runCli(["--install-dir", dir, "connect", "--url", "http://127.0.0.1:1/?apikey=x", "--api-key", "k"]);
    expect(query.code).toBe(2);
    expect(query.stderr).toContain("--url must not contain a query string");
  });

  it("with no terminal, a missing flag is exit 2 naming it, never a hang", async () => {
    const dir = installFor(IDLE_PORT);
    const child = await runCliChild(["--install-dir", dir, "connect", "sonarr", "--url", "http://127.0.0.1:1"]);
    expect(child.exitCode).toBe(2);
    expect(child.stderr).toContain("--api-key: missing (no terminal to ask on)");
  });
});

describe("scanarr connect --list", () => {
  it("shows which apps point at this scanarr, with their events and what is missing", async () => {
    const sonarr = await fakeApp("sonarr");
    const radarr = await fakeApp("radarr");
    const dir = installFor(IDLE_PORT);
    await runCli(["--install-dir", dir, "connect", "--url", sonarr.url, "--api-key", sonarr.apiKey]);
    Object.assign(sonarr.notifications[0] as Record<string, unknown>, { onRename: false, onGrab: true });
    const listed = await runCli([
      "--install-dir",
      dir,
      "connect",
      "--list",
      "--arr",
      `${sonarr.url},${sonarr.apiKey}`,
      "--arr",
      `${radarr.url},${radarr.apiKey}`,
    ]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`Sonarr 4.0.19.2979 at ${sonarr.url}: 1 connection(s) to this scanarr`);
    expect(listed.stdout).toContain(`"scanarr" (id 1) → http://127.0.0.1:${IDLE_PORT}/<SERVER_PASS>`);
    expect(listed.stdout).toContain("missing (scans lost): On Rename");
    expect(listed.stdout).toContain("not needed (scanarr ignores them): On Grab");
    expect(listed.stdout).toContain(`Radarr 4.0.19.2979 at ${radarr.url}: no connection points at this scanarr`);
    expect(listed.stdout).not.toContain(TEST_PASS);
  });

  it("flags override the remembered apps, and a refused one is reported without hiding the others (exit 1)", async () => {
    const sonarr = await fakeApp("sonarr");
    const radarr = await fakeApp("radarr");
    const dir = installFor(IDLE_PORT, { ARR_APPS: [{ TYPE: "sonarr", URL: sonarr.url, API_KEY: sonarr.apiKey }] });
    const mixed = await runCli([
      "--install-dir",
      dir,
      "connect",
      "--list",
      "--arr",
      `${radarr.url},wrong-key-0123456789`,
      "--arr",
      `${radarr.url},${radarr.apiKey}`,
    ]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain("refused the API key (401)");
    expect(mixed.stdout).toContain(`Radarr 4.0.19.2979 at ${radarr.url}: no connection points at this scanarr`);
    expect(mixed.stdout).not.toContain("Sonarr");
  });
});

function configOf(dir: string): Config {
  return JSON.parse(readFileSync(path.join(dir, "config", "config.json"), "utf8")) as Config;
}

describe("scanarr connect remembers the apps it connected (ARR_APPS)", () => {
  it("lists them with --list and no flags, without a terminal, never showing their keys", async () => {
    const sonarr = await fakeApp("sonarr");
    const radarr = await fakeApp("radarr");
    const dir = installFor(IDLE_PORT);
    for (const app of [sonarr, radarr]) {
      const run = await runCli(["--install-dir", dir, "connect", "--url", app.url, "--api-key", app.apiKey]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`Remembered ${app.url} in`);
    }
    const file = path.join(dir, "config", "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(configOf(dir).ARR_APPS).toEqual([
      { TYPE: "sonarr", URL: sonarr.url, API_KEY: sonarr.apiKey },
      { TYPE: "radarr", URL: radarr.url, API_KEY: radarr.apiKey },
    ]);

    const listed = await runCliChild(["--install-dir", dir, "connect", "--list"]);
    expect(listed.stderr).toBe("");
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain(`Sonarr 4.0.19.2979 at ${sonarr.url}: 1 connection(s) to this scanarr`);
    expect(listed.stdout).toContain(`Radarr 4.0.19.2979 at ${radarr.url}: 1 connection(s) to this scanarr`);
    const onlyRadarr = await runCli(["--install-dir", dir, "connect", "radarr", "--list"]);
    expect(onlyRadarr.stdout).not.toContain("Sonarr");
    const shown = await runCli(["--install-dir", dir, "config", "show"]);
    for (const out of [listed.stdout, listed.stderr, onlyRadarr.stdout, shown.stdout, shown.stderr])
      for (const key of [sonarr.apiKey, radarr.apiKey]) expect(out).not.toContain(key);
  });

  it("updates the entry of the same app and address instead of adding one, and a failed connect remembers nothing", async () => {
    const sonarr = await fakeApp("sonarr");
    const lidarr = await fakeApp("lidarr");
    const dir = installFor(IDLE_PORT, { ARR_APPS: [{ TYPE: "sonarr", URL: `${sonarr.url}/`, API_KEY: "an-old-key-0123456789" }] });
    const run = await runCli(["--install-dir", dir, "connect", "--url", `${sonarr.url}/api/v3`, "--api-key", sonarr.apiKey]);
    expect(run.code, run.stderr).toBe(0);
    expect(configOf(dir).ARR_APPS).toEqual([{ TYPE: "sonarr", URL: sonarr.url, API_KEY: sonarr.apiKey }]);
    const again = await runCli(["--install-dir", dir, "connect", "--url", sonarr.url, "--api-key", sonarr.apiKey]);
    expect(again.stdout).not.toContain("Remembered");

    const before = readFileSync(path.join(dir, "config", "config.json"), "utf8");
    const wrong = await runCli(["--install-dir", dir, "connect", "--url", lidarr.url, "--api-key", "not-the-key-0123456789"]);
    expect(wrong.code).toBe(1);
    expect(readFileSync(path.join(dir, "config", "config.json"), "utf8")).toBe(before);
  });

  it("says which remembered app it could not reach and lists the others (exit 1); with none, exit 2 naming --arr", async () => {
    const sonarr = await fakeApp("sonarr");
    const radarr = await fakeApp("radarr");
    const dir = installFor(IDLE_PORT, {
      ARR_APPS: [
        { TYPE: "sonarr", URL: sonarr.url, API_KEY: sonarr.apiKey },
        { TYPE: "radarr", URL: radarr.url, API_KEY: radarr.apiKey },
      ],
    });
    await sonarr.setAvailability("refuse");
    const listed = await runCli(["--install-dir", dir, "connect", "--list"]);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain(`error: Sonarr at ${sonarr.url} is unreachable (ECONNREFUSED)`);
    expect(listed.stdout).toContain(`Radarr 4.0.19.2979 at ${radarr.url}: no connection points at this scanarr`);

    const none = await runCliChild(["--install-dir", installFor(IDLE_PORT), "connect", "--list"]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("none is remembered in ARR_APPS");
    expect(none.stderr).toContain("--arr <url>,<api key>");
  });
});
