import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/types.js";
import { downloadPayload } from "../fakes/arr-payloads.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { spawnServe, writeServeConfig, type ChildServe } from "../helpers/child-serve.js";
import { tempDir } from "../helpers/cli.js";
import { ARR_MAPPINGS, ARR_SECTIONS, TEST_PASS, waitFor } from "../helpers/service.js";

// Issue 26: a library loads when its feature is on, not at start. These are the heavy optional ones.
const OPTIONAL = [
  "@googleapis/drive",
  "googleapis-common",
  "gaxios",
  "@node-rs/argon2",
  "prom-client",
  "yaml",
  "execa",
  "@inquirer/prompts",
  // Only a config text that JSON.parse refuses needs it (config/json-locate.ts).
  "jsonc-parser",
];
const RECORDER = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), "../helpers/record-imports.mjs")).href;

let plex: FakePlex | undefined;
let serve: ChildServe | undefined;

afterEach(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill("SIGKILL");
    await serve.exited;
  }
  serve = undefined;
  await plex?.close();
  plex = undefined;
});

/** The packages (node_modules/<name>) a `serve` on `overrides` loaded by the time it answered a webhook and ran its start-up checks. */
async function packagesLoadedBy(
  overrides: Partial<Config>,
): Promise<{ packages: Set<string>; builtins: Set<string>; ownModules: string[]; probeChildren: number }> {
  plex = await startFakePlex({ sections: ARR_SECTIONS });
  const dir = tempDir("scanarr-lazy-");
  const record = path.join(dir, "imports.txt");
  // The *arr's folders mapped to Plex's: mappings turn no feature on.
  writeServeConfig(dir, plex, { SERVER_PATH_MAPPINGS: ARR_MAPPINGS, ...overrides });
  serve = await spawnServe(dir, 60_000, {
    nodeFlags: ["--import", RECORDER],
    env: { SCANARR_RECORD_IMPORTS: record },
    logLevel: "debug",
  });
  const base = `http://127.0.0.1:${serve.port}`;
  const webhook = await fetch(`${base}/${TEST_PASS}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(downloadPayload("sonarr", "Sonarr", { id: 1, title: "Show", path: "/tv/Show" }, "Season 1/Show - S01E01.mkv")),
  });
  expect(webhook.status, await webhook.text()).toBe(202);
  expect((await fetch(`${base}/health`)).status).toBeLessThan(600);
  // The start-up checks log their results together once all have run (passing ones at debug).
  const current = serve;
  await waitFor(() => current.output().includes('"check":'), 30_000, "the start-up checks");
  const pid = serve.child.pid ?? 0;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  const probeChildren = children.filter((child) => readFileSync(`/proc/${child}/cmdline`, "utf8").includes("probe-child")).length;
  serve.child.kill("SIGTERM");
  expect(await serve.exited).toBe(0);
  const urls = readFileSync(record, "utf8").split("\n");
  const packages = new Set(
    urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((name): name is string => name !== undefined),
  );
  const builtins = new Set(urls.filter((line) => line.startsWith("builtin:")).map((line) => line.slice("builtin:".length)));
  // scanarr's own modules as src/<folder>/<name> (from source under tsx, or dist/ when built).
  const ownModules = urls.map((url) => /\/(?:src|dist)\/(.+)\.[jt]s$/.exec(url)?.[1]).filter((name): name is string => name !== undefined);
  return { packages, builtins, ownModules, probeChildren };
}

describe("serve pays only for what is on", () => {
  it("on the default config loads none of the optional libraries and starts no probe child", async () => {
    const { packages, builtins, ownModules, probeChildren } = await packagesLoadedBy({});
    // The recorder sees what serve does need (a CommonJS package and an ES module one).
    expect(packages).toContain("better-sqlite3");
    expect(packages).toContain("commander");
    expect(OPTIONAL.filter((name) => packages.has(name))).toEqual([]);
    expect(probeChildren).toBe(0);
    // The global fetch (undici, and its WebAssembly parser compiled at the first request) costs
    // about 16 MB of idle RSS; the calls to Plex at start go through node:http (lib/http-fetch.ts).
    expect(builtins).toContain("http");
    expect(builtins).not.toContain("internal/deps/undici/undici");
    // Without a WATCH or NOTIFICATIONS their modules stay unloaded, and the dashboard's page
    // modules wait for the first page asked for.
    expect(ownModules).toContain("serve/service");
    expect(ownModules.filter((name) => name.startsWith("watch/start") || name.startsWith("notify/"))).toEqual(["notify/settings"]);
    expect(ownModules.filter((name) => ["server/dashboard/page", "server/dashboard/client-script"].includes(name))).toEqual([]);
    // Only the configured TYPEs' target folders load (the flat PLEX_* keys make a plex entry); every
    // folder's config.ts does, as the loader checks every kind (with the declarations they share,
    // such as media-browser/confirm-config).
    const targetFolders = ownModules.filter((name) => /^targets\/[^/]+\//.test(name) && !/[/-]config$/.test(name));
    expect(new Set(targetFolders.map((name) => name.split("/")[1]))).toEqual(new Set(["plex", "plex-scanner"]));
  }, 120_000);

  it("loads the metrics client once METRICS.ENABLED", async () => {
    const { packages } = await packagesLoadedBy({ METRICS: { ENABLED: true } });
    expect(packages).toContain("prom-client");
    expect(packages).not.toContain("@googleapis/drive");
  }, 120_000);
});
