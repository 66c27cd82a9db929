import { readFile, stat, writeFile, mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/cli/authorize.js";
import { InterruptedError, UserError } from "../../src/domain.js";
import { startFakeOAuth, type FakeOAuth } from "../fakes/oauth.js";
import { consentInBrowser, createHarness, type Harness } from "./harness.js";

let fake: FakeOAuth;
let h: Harness;

beforeEach(async () => {
  fake = await startFakeOAuth({ clientId: "1234-test.apps.googleusercontent.com", clientSecret: "GOCSPX-not-to-be-printed-9f3a" });
  h = await createHarness(fake);
});

afterEach(async () => {
  await fake.close();
  await h.cleanup();
});

async function readStoredToken(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(h.ctx.paths.tokenFile, "utf8")) as Record<string, unknown>;
}

describe("scanarr authorize (OAuth with PKCE)", () => {
  it("stores the token when the user pastes the whole address the browser ended on", async () => {
    const finished = run({}, h.ctx);
    const landed = await consentInBrowser(h.stdout);
    h.stdin.write(`${landed}\n`);

    expect(await finished).toBe(0);
    const token = await readStoredToken();
    expect(token.access_token).toBe(fake.issuedAccessTokens[0]);
    expect(token.refresh_token).toMatch(/^1\/\/0g/);
    expect(token.expiry_date).toBeGreaterThan(Date.now() + 3_000_000);
    expect(fake.tokenCalls.map((c) => c.grantType)).toEqual(["authorization_code"]);
    expect(h.stdout.output).toContain("sudo systemctl restart scanarr");
  });

  it("sends PKCE, offline access, forced consent, full drive scope and a loopback redirect", async () => {
    const finished = run({}, h.ctx);
    const [printed] = await h.stdout.waitFor(/http:\/\/127\.0\.0\.1:\d+\/o\/oauth2\/v2\/auth\?\S+/);
    const q = new URL(printed).searchParams;
    expect(q.get("access_type")).toBe("offline");
    expect(q.get("prompt")).toBe("consent");
    expect(q.get("scope")).toBe("https://www.googleapis.com/auth/drive");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    h.stdin.write(`${await consentInBrowser(h.stdout)}\n`);
    await finished;
    const exchange = fake.tokenCalls[0]?.params ?? {};
    expect(exchange.redirect_uri).toBe(q.get("redirect_uri"));
    expect(exchange.code_verifier).toHaveLength(86);
  });

  it("finishes by itself when the browser reaches the loopback listener", async () => {
    const finished = run({}, h.ctx);
    const landed = await consentInBrowser(h.stdout);
    const page = await fetch(landed);

    expect(page.status).toBe(200);
    expect(await page.text()).toContain("You can close this tab");
    expect(await finished).toBe(0);
    expect(h.stdout.output).toContain("(received from the browser)");
    expect((await readStoredToken()).access_token).toBe(fake.issuedAccessTokens[0]);
  });

  it("listens on the port given with --port", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const finished = run({ port: String(port) }, h.ctx);
    const landed = await consentInBrowser(h.stdout);
    expect(new URL(landed).port).toBe(String(port));
    await fetch(landed);
    expect(await finished).toBe(0);
  });

  it("accepts only the code when the user pastes that", async () => {
    const finished = run({}, h.ctx);
    const code = new URL(await consentInBrowser(h.stdout)).searchParams.get("code");
    h.stdin.write(`\n  ${code}  \n`);

    expect(await finished).toBe(0);
    expect((await readStoredToken()).access_token).toBe(fake.issuedAccessTokens[0]);
  });

  it("refuses an address whose state belongs to another attempt and stores nothing", async () => {
    const finished = run({}, h.ctx);
    const landed = new URL(await consentInBrowser(h.stdout));
    landed.searchParams.set("state", "forged-state");
    h.stdin.write(`${landed.toString()}\n`);

    await expect(finished).rejects.toThrow(/state does not match/);
    expect(fake.tokenCalls).toHaveLength(0);
    await expect(stat(h.ctx.paths.tokenFile)).rejects.toThrow(/ENOENT/);
  });

  it("says access was denied when the user refuses consent", async () => {
    fake.consent = "deny";
    const finished = run({}, h.ctx);
    finished.catch(() => undefined);
    const page = await fetch(await consentInBrowser(h.stdout));

    expect(page.status).toBe(400);
    await expect(finished).rejects.toThrow(/Access was denied/);
    await expect(stat(h.ctx.paths.tokenFile)).rejects.toThrow(/ENOENT/);
  });

  it("says a refused code is single-use, without the 7-day Testing advice that belongs to refreshes", async () => {
    fake.failNextToken = "invalid_grant";
    const finished = run({}, h.ctx);
    h.stdin.write(`${await consentInBrowser(h.stdout)}\n`);

    const error = await finished.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/refused the authorization code \(invalid_grant.*single-use/);
    expect((error as Error).message).not.toMatch(/Testing|7 days/);
  });

  it("asks again after a paste that is neither an address nor a code, and sends Google only the real one", async () => {
    const finished = run({}, h.ctx);
    const landed = await consentInBrowser(h.stdout);
    h.stdin.write("garbage\n");
    await h.stdout.waitFor(/neither the address the browser ended on nor an authorization code[\s\S]*Paste the address/);
    expect(fake.tokenCalls).toHaveLength(0);
    h.stdin.write(`${landed}\n`);

    expect(await finished).toBe(0);
    expect(fake.tokenCalls.map((c) => c.params.code)).toEqual([new URL(landed).searchParams.get("code")]);
    expect(h.stdout.output.match(/Paste the address/g)).toHaveLength(2);
  });

  it("ends with how to restart under systemd and under Docker", async () => {
    const finished = run({}, h.ctx);
    await fetch(await consentInBrowser(h.stdout));
    expect(await finished).toBe(0);
    expect(h.stdout.output).toContain("sudo systemctl restart scanarr");
    expect(h.stdout.output).toContain("docker restart scanarr");
  });

  it("says the token endpoint is unreachable when nothing listens there", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    h.ctx.config.CLOUD.TOKEN_URL = `http://127.0.0.1:${port}/token`;

    const finished = run({}, h.ctx);
    h.stdin.write(`${await consentInBrowser(h.stdout)}\n`);

    await expect(finished).rejects.toThrow(new RegExp(`Cannot reach the token endpoint http://127.0.0.1:${port}/token \\(ECONNREFUSED\\)`));
  });

  it("asks to try again later when the token endpoint answers 503", async () => {
    fake.failNextToken = "server_error";
    const finished = run({}, h.ctx);
    h.stdin.write(`${await consentInBrowser(h.stdout)}\n`);

    await expect(finished).rejects.toThrow(/HTTP 503.*try again/);
  });

  it("rewrites an existing token file with mode 0600 and the new content", async () => {
    await mkdir(path.dirname(h.ctx.paths.tokenFile), { recursive: true });
    await writeFile(h.ctx.paths.tokenFile, "{}", { mode: 0o644 });
    const finished = run({}, h.ctx);
    h.stdin.write(`${await consentInBrowser(h.stdout)}\n`);
    await finished;

    expect((await stat(h.ctx.paths.tokenFile)).mode & 0o777).toBe(0o600);
    expect(Object.keys(await readStoredToken()).sort()).toEqual(["access_token", "expiry_date", "refresh_token", "scope", "token_type"]);
  });

  it("logs that the first access token and the access tokens were retrieved", async () => {
    const finished = run({}, h.ctx);
    h.stdin.write(`${await consentInBrowser(h.stdout)}\n`);
    await finished;

    const messages = h.log.output
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain("Retrieved first access token");
    expect(messages).toContain("Access tokens were successfully retrieved");
  });

  it("stops as interrupted (the CLI exits 130) and stores nothing when interrupted while waiting", async () => {
    const finished = run({}, h.ctx);
    await h.stdout.waitFor(/press Enter/);
    h.abort.abort();

    await expect(finished).rejects.toThrow(InterruptedError);
    await expect(finished).rejects.toThrow("interrupted; nothing was stored");
    await expect(stat(h.ctx.paths.tokenFile)).rejects.toThrow(/ENOENT/);
  });

  it("keeps waiting for the browser after the input ends", async () => {
    const finished = run({}, h.ctx);
    h.stdin.end();
    await fetch(await consentInBrowser(h.stdout));

    expect(await finished).toBe(0);
  });
});

describe("scanarr authorize refuses to start without a usable config", () => {
  it("exits 2 when CLOUD.ENABLED is false", async () => {
    h.ctx.config.CLOUD.ENABLED = false;
    await expect(run({}, h.ctx)).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/CLOUD\.ENABLED/) });
  });

  it("names both keys when the client id and secret are empty", async () => {
    h.ctx.config.CLOUD.CLIENT_ID = "";
    h.ctx.config.CLOUD.CLIENT_SECRET = "";
    await expect(run({}, h.ctx)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/CLOUD\.CLIENT_ID and CLOUD\.CLIENT_SECRET are empty/),
    });
  });

  it("rejects a port outside 0-65535", async () => {
    await expect(run({ port: "70000" }, h.ctx)).rejects.toMatchObject({ exitCode: 2 });
  });
});

describe("scanarr authorize with CLOUD.RCLONE_REMOTE", () => {
  it("says the remote's own client and token are used, asks nothing and writes no token", async () => {
    h.ctx.config = { ...h.ctx.config, CLOUD: { ...h.ctx.config.CLOUD, RCLONE_REMOTE: "gcrypt:" } };
    expect(await run({}, h.ctx)).toBe(0);
    expect(h.stdout.output).toContain('uses the rclone remote "gcrypt:" (CLOUD.RCLONE_REMOTE)');
    expect(h.stdout.output).toContain("no authorization is needed here");
    expect(h.stdout.output).not.toContain("Open this address");
    expect(fake.tokenCalls).toEqual([]);
    await expect(stat(h.ctx.paths.tokenFile)).rejects.toThrow(/ENOENT/);
  });
});
