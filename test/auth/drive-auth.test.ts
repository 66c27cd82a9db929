import { generateKeyPairSync } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadDriveAuth } from "../../src/auth/drive-auth.js";
import { writeToken } from "../../src/auth/token-store.js";
import { verifyDriveAccess } from "../../src/auth/verify-access.js";
import { run } from "../../src/cli/authorize.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startFakeOAuth, type FakeOAuth } from "../fakes/oauth.js";
import { CLIENT, createHarness, type Harness } from "./harness.js";

let fake: FakeOAuth;
let h: Harness;

beforeEach(async () => {
  fake = await startFakeOAuth(CLIENT);
  h = await createHarness(fake);
});

afterEach(async () => {
  await fake.close();
  await h.cleanup();
});

async function writeServiceAccount(email: string, register: boolean): Promise<string> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  if (register) fake.addServiceAccount(email, publicKey.export({ type: "spki", format: "pem" }).toString());
  const file = path.join(h.dir, "service-account.json");
  const key = { type: "service_account", client_email: email, private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
  await writeFile(file, JSON.stringify(key));
  return file;
}

describe("loadDriveAuth with a stored OAuth token", () => {
  it("refreshes an expired access token at CLOUD.TOKEN_URL and writes it back keeping the refresh token", async () => {
    const refresh = fake.seedRefreshToken();
    const tokenFile = h.ctx.paths.tokenFile;
    await writeToken(tokenFile, {
      access_token: "ya29.expired",
      refresh_token: refresh,
      expiry_date: Date.now() - 1000,
      token_type: "Bearer",
    });

    const credentials = await loadDriveAuth({ config: h.ctx.config, tokenFile, logger: h.ctx.logger });
    await verifyDriveAccess(credentials, fake.apiUrl);

    expect(fake.tokenCalls.map((c) => c.grantType)).toEqual(["refresh_token"]);
    await vi.waitFor(async () => {
      const stored = JSON.parse(await readFile(tokenFile, "utf8")) as Record<string, unknown>;
      expect(stored.access_token).toBe(fake.issuedAccessTokens[0]);
      expect(stored.refresh_token).toBe(refresh);
    });
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
  });

  it("uses a fresh stored access token without calling the token endpoint", async () => {
    const refresh = fake.seedRefreshToken();
    // A valid access token must come from the fake; get one through a refresh first.
    const first = await loadDriveAuth({ config: h.ctx.config, tokenFile: await storeExpired(refresh), logger: silentLogger() });
    await verifyDriveAccess(first, fake.apiUrl);
    await vi.waitFor(async () => expect(await readFile(h.ctx.paths.tokenFile, "utf8")).toContain(fake.issuedAccessTokens[0] ?? "?"));
    const calls = fake.tokenCalls.length;

    const second = await loadDriveAuth({ config: h.ctx.config, tokenFile: h.ctx.paths.tokenFile, logger: silentLogger() });
    await verifyDriveAccess(second, fake.apiUrl);
    expect(fake.tokenCalls).toHaveLength(calls);
  });

  it("explains a revoked refresh token with the Testing-mode advice", async () => {
    const tokenFile = await storeExpired("1//0g-revoked");
    const credentials = await loadDriveAuth({ config: h.ctx.config, tokenFile, logger: silentLogger() });

    await expect(verifyDriveAccess(credentials, fake.apiUrl)).rejects.toThrow(/invalid_grant.*"Testing".*7 days/s);
  });

  it("tells the user to run scanarr authorize when there is no token yet", async () => {
    await expect(loadDriveAuth({ config: h.ctx.config, tokenFile: h.ctx.paths.tokenFile, logger: silentLogger() })).rejects.toThrow(
      /run `scanarr authorize`/,
    );
  });

  it("refuses when CLOUD.ENABLED is false", async () => {
    const config = { ...h.ctx.config, CLOUD: { ...h.ctx.config.CLOUD, ENABLED: false } };
    await expect(loadDriveAuth({ config, tokenFile: h.ctx.paths.tokenFile, logger: silentLogger() })).rejects.toThrow(/CLOUD\.ENABLED/);
  });

  it("refuses when the client secret is missing", async () => {
    const config = { ...h.ctx.config, CLOUD: { ...h.ctx.config.CLOUD, CLIENT_SECRET: "" } };
    await expect(loadDriveAuth({ config, tokenFile: h.ctx.paths.tokenFile, logger: silentLogger() })).rejects.toThrow(
      /CLOUD\.CLIENT_SECRET is empty/,
    );
  });

  it("reports a damaged token file", async () => {
    await writeToken(h.ctx.paths.tokenFile, { access_token: "", refresh_token: "x", expiry_date: 0, token_type: "Bearer" });
    await writeFile(h.ctx.paths.tokenFile, "not json");
    await expect(loadDriveAuth({ config: h.ctx.config, tokenFile: h.ctx.paths.tokenFile, logger: silentLogger() })).rejects.toThrow(
      /damaged/,
    );
  });
});

async function storeExpired(refresh: string): Promise<string> {
  await writeToken(h.ctx.paths.tokenFile, {
    access_token: "ya29.old",
    refresh_token: refresh,
    expiry_date: Date.now() - 1,
    token_type: "Bearer",
  });
  return h.ctx.paths.tokenFile;
}

describe("service accounts", () => {
  it("gets a token with a signed jwt-bearer assertion at CLOUD.TOKEN_URL and reaches Drive", async () => {
    const file = await writeServiceAccount("monitor@project.iam.gserviceaccount.com", true);
    const config = { ...h.ctx.config, CLOUD: { ...h.ctx.config.CLOUD, SERVICE_ACCOUNT_FILE: file, CLIENT_ID: "", CLIENT_SECRET: "" } };

    const credentials = await loadDriveAuth({ config, tokenFile: h.ctx.paths.tokenFile, logger: silentLogger() });
    await verifyDriveAccess(credentials, fake.apiUrl);

    expect(fake.tokenCalls.map((c) => c.grantType)).toEqual(["urn:ietf:params:oauth:grant-type:jwt-bearer"]);
    const claims = JSON.parse(Buffer.from(fake.tokenCalls[0]?.params.assertion?.split(".")[1] ?? "", "base64url").toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({
      iss: "monitor@project.iam.gserviceaccount.com",
      scope: "https://www.googleapis.com/auth/drive",
      aud: fake.tokenUrl,
    });
  });

  it("authorize only verifies access and stores no token", async () => {
    h.ctx.config.CLOUD.SERVICE_ACCOUNT_FILE = await writeServiceAccount("monitor@project.iam.gserviceaccount.com", true);

    expect(await run({}, h.ctx)).toBe(0);
    expect(h.stdout.output).toContain("Service account monitor@project.iam.gserviceaccount.com can read Google Drive");
    expect(h.stdout.output).toContain("sudo systemctl restart scanarr");
    await expect(stat(h.ctx.paths.tokenFile)).rejects.toThrow(/ENOENT/);
  });

  it("authorize fails clearly when Google rejects the service account's signature", async () => {
    h.ctx.config.CLOUD.SERVICE_ACCOUNT_FILE = await writeServiceAccount("stranger@project.iam.gserviceaccount.com", false);
    await expect(run({}, h.ctx)).rejects.toThrow(/invalid_grant: Invalid JWT Signature/);
  });

  it("authorize exits 2 when the service-account file is not a key", async () => {
    const file = path.join(h.dir, "client.json");
    await writeFile(file, JSON.stringify({ installed: { client_id: "x" } }));
    h.ctx.config.CLOUD.SERVICE_ACCOUNT_FILE = file;
    await expect(run({}, h.ctx)).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/not a service-account key/) });
  });
});
