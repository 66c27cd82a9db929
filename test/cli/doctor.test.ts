import { createServer, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/doctor/types.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { allowViolations } from "../fakes/spec/violations.js";
import { runCli } from "../helpers/cli.js";
import { installFor, PASS } from "../doctor/helpers.js";

let plex: FakePlex;
const SHARED = "shared-user-token-456789";
beforeAll(async () => {
  plex = await startFakePlex({ sharedToken: SHARED });
});
afterAll(async () => {
  await plex.close();
});

async function doctor(dir: string): Promise<{ code: number; stdout: string; checks: CheckResult[] }> {
  const text = await runCli(["--install-dir", dir, "doctor"]);
  const json = await runCli(["--install-dir", dir, "doctor", "--json"]);
  expect(json.code).toBe(text.code);
  for (const out of [text.stdout, json.stdout, text.stderr]) {
    expect(out).not.toContain(PASS);
    expect(out).not.toContain(plex.token);
    expect(out).not.toContain(SHARED);
  }
  return { code: text.code, stdout: text.stdout, checks: (JSON.parse(json.stdout) as { checks: CheckResult[] }).checks };
}

const failing = (checks: CheckResult[]) => checks.filter((c) => !c.ok);

describe("scanarr doctor against the loopback Plex", () => {
  it("passes every check on a good set-up and exits 0", async () => {
    const { dir } = await installFor(plex.url, plex.token);
    const { code, stdout, checks } = await doctor(dir);
    expect(failing(checks)).toEqual([]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^pass {2}target plex +reachable at http:\/\/127\.0\.0\.1:\d+, token accepted, admin; 4 libraries: Movies/m);
    expect(stdout).toMatch(/^pass {2}mapping \/data\/TV-Shows\/ +\/data\/TV-Shows\/ is inside TV Shows \(plex: \/data\/TV-Shows\)/m);
    expect(stdout).toMatch(/^pass {2}listen +127\.0\.0\.1:\d+ is free/m);
    expect(stdout).toContain(`all ${checks.length} checks passed`);
  });

  it("fails a mapping key that is in no library, and suggests the library next to it", async () => {
    const { dir } = await installFor(plex.url, plex.token, {
      SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"], "/data/Movies/": ["/movies/"] },
    });
    const { code, checks } = await doctor(dir);
    expect(code).toBe(1);
    expect(failing(checks)).toEqual([
      {
        name: "mapping /data/TV/",
        ok: false,
        detail: expect.stringMatching(
          /^\/data\/TV\/ is in no library, so nothing mapped to it gets scanned: plex has .*; did you mean "\/data\/TV-Shows\/"\?$/,
        ),
      },
    ]);
  });

  it("checks where each rewrite's results land: the fixed start of its TO, mapped, in a library", async () => {
    const { dir } = await installFor(plex.url, plex.token, {
      SERVER_PATH_REWRITES: [{ FROM: "^/archive/(\\d{4})/([^/]+)/", TO: "/movies/$2 ($1)/" }],
      SOURCES: { sonarr: { REWRITES: [{ FROM: "^/srv/(.*)", TO: "/data/TV/$1" }] } },
    });
    const { checks } = await doctor(dir);
    expect(checks.filter((c) => c.name.startsWith("rewrite "))).toEqual([
      {
        name: "rewrite SERVER_PATH_REWRITES[0]",
        ok: true,
        detail: "its TO starts with /movies/, so /data/Movies/ is inside Movies (plex: /data/Movies)",
      },
      {
        name: "rewrite SOURCES.sonarr.REWRITES[0]",
        ok: false,
        detail: expect.stringMatching(
          /^its TO starts with \/data\/TV\/, so \/data\/TV\/ is in no library.*did you mean "\/data\/TV-Shows\/"\?$/,
        ),
      },
    ]);
  });

  it("flags a list entry without its leading slash", async () => {
    const { dir } = await installFor(plex.url, plex.token, {
      SERVER_PATH_MAPPINGS: { "/data/Movies/": ["mnt/unionfs/Movies/", "My Drive/Movies/"] },
    });
    const { checks } = await doctor(dir);
    expect(failing(checks).map((c) => c.detail)).toEqual([
      expect.stringMatching(/"mnt\/unionfs\/Movies\/" has no leading slash.*did you mean "\/mnt\/unionfs\/Movies\/"/),
    ]);
  });

  it("says the token is refused, a shared user's or missing", async () => {
    const wrong = await doctor((await installFor(plex.url, "not-the-token")).dir);
    expect(failing(wrong.checks)[0]).toEqual({
      name: "target plex",
      ok: false,
      detail: expect.stringMatching(/refused the token \(401\)/),
    });
    const shared = await doctor((await installFor(plex.url, SHARED)).dir);
    expect(failing(shared.checks)).toEqual([
      {
        name: "target plex",
        ok: false,
        detail: expect.stringMatching(/^reachable, but Plex at .* answered 403 .*admin-only.*admin account/),
      },
    ]);
    // With no token, doctor still asks Plex so the target's line says what Plex answers (401): a request the description does not allow, on purpose.
    allowViolations(/carries none of the credentials/);
    const empty = await doctor((await installFor(plex.url, "")).dir);
    expect(failing(empty.checks).map((c) => c.name)).toEqual(expect.arrayContaining(["config", "target plex"]));
    expect(empty.stdout).toMatch(/^FAIL {2}config +PLEX_TOKEN: must be set/m);
  });

  it("says Plex is unreachable when nothing answers, and the mappings cannot be checked", async () => {
    const down = await startFakePlex();
    const url = down.url;
    await down.close();
    const { code, checks } = await doctor((await installFor(url, plex.token)).dir);
    expect(code).toBe(1);
    expect(failing(checks).map((c) => c.detail)).toEqual([
      expect.stringMatching(/is unreachable \(ECONNREFUSED\)/),
      expect.stringMatching(/^cannot check \/data\/TV-Shows\/: libraries unknown/),
      expect.stringMatching(/^cannot check \/data\/Movies\/: libraries unknown/),
    ]);
  });
});

describe("doctor's listening-address check", () => {
  let other: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve()));
    other = undefined;
  });

  async function occupy(port: number, answer: (res: import("node:http").ServerResponse) => void): Promise<void> {
    other = createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => other?.listen(port, "127.0.0.1", resolve));
  }

  it("fails when another program holds the port", async () => {
    const { dir, config } = await installFor(plex.url, plex.token);
    await occupy(config.SERVER_PORT, (res) => res.writeHead(404).end("not scanarr"));
    const { checks } = await doctor(dir);
    expect(failing(checks)).toEqual([{ name: "listen", ok: false, detail: expect.stringMatching(/is in use by another program/) }]);
  });

  it("passes when the port is held by a running scanarr", async () => {
    const { dir, config } = await installFor(plex.url, plex.token);
    await occupy(config.SERVER_PORT, (res) => res.writeHead(503, { "content-type": "application/json" }).end('{"status":"degraded"}'));
    const { checks } = await doctor(dir);
    expect(checks.find((c) => c.name === "listen")).toEqual({
      name: "listen",
      ok: true,
      detail: expect.stringMatching(/in use by a running scanarr \(its \/health says degraded\)/),
    });
  });
});
