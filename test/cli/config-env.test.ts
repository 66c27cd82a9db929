import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { hashPassword, verifyPassword } from "../../src/auth/password-hash.js";
import { startFakePlex } from "../fakes/plex.js";
import { spawnServe, type ChildServe, writeServeConfig } from "../helpers/child-serve.js";
import { TEST_PASS } from "../helpers/service.js";
import { runCli, tempDir } from "../helpers/cli.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PASS = "0123456789abcdef0123456789abcdef";
const SECRET = "plex-token-from-a-docker-secret-7Q4Z";

/** An install dir with a config.json (0600) and a secret file as Docker mounts one, with its trailing line break. */
function install(config: Record<string, unknown>): { dir: string; secretFile: string; configFile: string } {
  const dir = tempDir("scanarr-env-");
  mkdirSync(path.join(dir, "config"));
  const configFile = path.join(dir, "config", "config.json");
  writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 });
  const secretFile = path.join(dir, "plex_token");
  writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
  return { dir, secretFile, configFile };
}

/** The environment without the test runner's own SCANARR_ variables. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SCANARR_")));
  return { ...env, NO_COLOR: "1", ...extra };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("configuration from the environment, through the real CLI", () => {
  it("config show marks each value's source and masks the secret a _FILE variable read", async () => {
    const { dir, secretFile } = install({ SERVER_PASS: PASS, SERVER_SCAN_DELAY: 30 });
    const env = cleanEnv({ SCANARR_SERVER_PORT: "4011", SCANARR_PLEX_TOKEN_FILE: secretFile, SCANARR_CLOUD__ENABLED: "yes" });
    const args = ["--import", "tsx", path.join(repoRoot, "src/cli/main.ts"), "--install-dir", dir, "config", "show"];
    const run = promisify(execFile);
    const text = await run(process.execPath, args, { cwd: repoRoot, env, timeout: 30_000 });
    expect(text.stdout).toContain("SERVER_PORT = 4011  # env SCANARR_SERVER_PORT\n");
    expect(text.stdout).toContain('PLEX_TOKEN = "****7Q4Z"  # env SCANARR_PLEX_TOKEN_FILE\n');
    expect(text.stdout).toContain("CLOUD.ENABLED = true  # env SCANARR_CLOUD__ENABLED\n");
    expect(text.stdout).toContain("SERVER_SCAN_DELAY = 30  # file\n");
    expect(text.stdout).toContain('SERVER_IP = "0.0.0.0"  # default\n');
    const json = await run(process.execPath, [...args, "--json"], { cwd: repoRoot, env, timeout: 30_000 });
    const shown = JSON.parse(json.stdout) as { PLEX_TOKEN: string; SERVER_PORT: number; sources: Record<string, string> };
    expect(shown.SERVER_PORT).toBe(4011);
    expect(shown.PLEX_TOKEN).toBe("****7Q4Z");
    expect(shown.sources).toMatchObject({
      SERVER_PORT: "env SCANARR_SERVER_PORT",
      PLEX_TOKEN: "env SCANARR_PLEX_TOKEN_FILE",
      SERVER_PASS: "file",
      SERVER_IP: "default",
    });
    for (const out of [text.stdout, text.stderr, json.stdout, json.stderr]) expect(out).not.toContain(SECRET);
  });

  it("exits 2 naming the variable when one is wrong, quoting no secret", async () => {
    const { dir, secretFile } = install({ SERVER_PASS: PASS });
    const result = await runCli(["--install-dir", dir, "config", "check"], {
      SCANARR_SERVER_PROT: "4011",
      SCANARR_PLEX_TOKEN: SECRET,
      SCANARR_PLEX_TOKEN_FILE: secretFile,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SCANARR_SERVER_PROT: names no config key (did you mean SCANARR_SERVER_PORT?)");
    expect(result.stderr).toContain("SCANARR_PLEX_TOKEN and SCANARR_PLEX_TOKEN_FILE both set PLEX_TOKEN; keep one");
    expect(result.stderr).not.toContain(SECRET);
  });

  it("applies the variables also where a command runs on the defaults for want of a file", async () => {
    const dir = tempDir("scanarr-env-nofile-");
    const result = await runCli(["--install-dir", dir, "status", "/tv/Show"], { SCANARR_SERVER_PROT: "4011" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SCANARR_SERVER_PROT: names no config key (did you mean SCANARR_SERVER_PORT?)");
  });

  it("doctor lists the keys the environment set, and no secret", async () => {
    const { dir, secretFile } = install({ SERVER_PASS: PASS, PLEX_LOCAL_URL: "http://127.0.0.1:9" });
    const result = await runCli(["--install-dir", dir, "doctor"], { SCANARR_PLEX_TOKEN_FILE: secretFile, SCANARR_SERVER_PORT: "0" });
    expect(result.stdout).toMatch(
      /^pass {2}config +from the environment, over the file: PLEX_TOKEN \(SCANARR_PLEX_TOKEN_FILE\), SERVER_PORT \(SCANARR_SERVER_PORT\)$/m,
    );
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it("writes no value of the environment into the file when passwd rewrites it", async () => {
    const { dir, configFile } = install({ SERVER_PASS: PASS });
    const env = { SCANARR_SERVER_PORT: "4012", SCANARR_PLEX_TOKEN: SECRET };
    const result = await runCli(["--install-dir", dir, "passwd", "--username", "arr"], env, "a password\n");
    expect(result.code).toBe(0);
    const after = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, unknown>;
    expect(Object.keys(after)).toEqual(["SERVER_PASS", "SERVER_USERNAME", "SERVER_PASSWORD_HASH"]);
    expect(JSON.stringify(after)).not.toMatch(/4012|plex-token/);
  });

  it("leaves a login the environment gives there, writing only the new hash and saying the variable still wins", async () => {
    const { dir, configFile } = install({ SERVER_PASS: PASS });
    const env = { SCANARR_SERVER_USERNAME: "from-env", SCANARR_SERVER_PASSWORD_HASH: await hashPassword("old password") };
    const result = await runCli(["--install-dir", dir, "passwd"], env, "new password\n");
    expect(result.code).toBe(0);
    const after = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, string>;
    expect(Object.keys(after)).toEqual(["SERVER_PASS", "SERVER_PASSWORD_HASH"]);
    expect(await verifyPassword(after.SERVER_PASSWORD_HASH ?? "", "new password")).toBe(true);
    expect(result.stderr).toContain("note: SCANARR_SERVER_PASSWORD_HASH sets SERVER_PASSWORD_HASH over the file");
  });
});

describe("serve with its port from the environment", () => {
  let serve: ChildServe | undefined;
  afterEach(async () => {
    serve?.child.kill("SIGTERM");
    await serve?.exited;
    serve = undefined;
  });

  it("listens on SCANARR_SERVER_PORT and answers /health there, never logging the _FILE secret", async () => {
    // The fake Plex takes only the token of the secret file; the config file holds none.
    const plex = await startFakePlex({ token: SECRET });
    onTestFinished(() => plex.close());
    const dir = tempDir("scanarr-env-serve-");
    writeServeConfig(dir, { url: plex.url, token: "" }, { SERVER_PORT: 0 });
    const secretFile = path.join(dir, "plex_token");
    writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
    const port = await freePort();
    serve = await spawnServe(dir, 30_000, { env: { SCANARR_SERVER_PORT: String(port), SCANARR_PLEX_TOKEN_FILE: secretFile } });
    expect(serve.port).toBe(port);
    // "ok" once Plex accepted the token: the one from the secret file.
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/health`)).status, { timeout: 15_000 }).toBe(200);
    expect(serve.output()).toContain(
      "config from the environment, over the file: PLEX_TOKEN (SCANARR_PLEX_TOKEN_FILE), SERVER_PORT (SCANARR_SERVER_PORT)",
    );
    expect(serve.output()).not.toContain(SECRET);
    expect(readFileSync(path.join(dir, "config", "config.json"), "utf8")).not.toContain(SECRET);
  });

  it("passes no SCANARR_ config variable to the programs serve runs, so a secret set there reaches none", async () => {
    const plex = await startFakePlex({ token: SECRET });
    onTestFinished(() => plex.close());
    const dir = tempDir("scanarr-env-child-");
    const dump = path.join(dir, "command-env.json");
    const program = path.join(dir, "dump-env.mjs");
    writeFileSync(program, 'import { writeFileSync } from "node:fs";\nwriteFileSync(process.argv[2], JSON.stringify(process.env));\n');
    writeServeConfig(
      dir,
      { url: plex.url, token: "" },
      { SERVER_SCAN_DELAY: 0, TARGETS: [{ TYPE: "command", NAME: "dump", COMMAND: [process.execPath, program, dump] }] as never },
    );
    serve = await spawnServe(dir, 30_000, {
      env: { SCANARR_PLEX_TOKEN: SECRET, SCANARR_SERVER_PASS: TEST_PASS, SCANARR_SERVER_ALLOW_MANUAL_SCAN: "true" },
    });
    const answer = await fetch(`http://127.0.0.1:${serve.port}/${TEST_PASS}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ eventType: "Manual", filepath: "/data/TV/Show/Season 1/Show - S01E01.mkv" }),
    });
    expect(answer.status, await answer.text()).toBe(202);
    await expect.poll(() => existsSync(dump), { timeout: 20_000 }).toBe(true);
    const env = JSON.parse(readFileSync(dump, "utf8")) as Record<string, string>;
    expect(Object.keys(env).filter((name) => name.startsWith("SCANARR_"))).toEqual([]);
    expect(JSON.stringify(env)).not.toContain(SECRET);
  });
});
