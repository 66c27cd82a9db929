import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadDriveAuth } from "../../src/auth/drive-auth.js";
import { writeToken } from "../../src/auth/token-store.js";
import { verifyDriveAccess } from "../../src/auth/verify-access.js";
import { run } from "../../src/cli/authorize.js";
import { startFakeOAuth, type FakeOAuth } from "../fakes/oauth.js";
import { CLIENT, consentInBrowser, createHarness, type Harness } from "./harness.js";

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

function everythingWritten(): string {
  return h.stdout.output + h.stderr.output + h.log.output;
}

describe("secrets stay out of the terminal and the log", () => {
  it("prints and logs neither the client secret, the code, the verifier nor the tokens during authorize", async () => {
    const finished = run({}, h.ctx);
    const landed = await consentInBrowser(h.stdout);
    h.stdin.write(`${landed}\n`);
    expect(await finished).toBe(0);

    const stored = JSON.parse(await readFile(h.ctx.paths.tokenFile, "utf8")) as { access_token: string; refresh_token: string };
    const secrets = [
      CLIENT.clientSecret,
      stored.access_token,
      stored.refresh_token,
      new URL(landed).searchParams.get("code") ?? "?",
      fake.tokenCalls[0]?.params.code_verifier ?? "?",
    ];
    const written = everythingWritten();
    expect(written.length).toBeGreaterThan(200);
    for (const secret of secrets) expect(written).not.toContain(secret);
  });

  it("logs neither the old nor the refreshed token when loadDriveAuth refreshes", async () => {
    const refresh = fake.seedRefreshToken();
    await writeToken(h.ctx.paths.tokenFile, {
      access_token: "ya29.old-secret",
      refresh_token: refresh,
      expiry_date: 0,
      token_type: "Bearer",
    });
    const credentials = await loadDriveAuth({ config: h.ctx.config, tokenFile: h.ctx.paths.tokenFile, logger: h.ctx.logger });
    await verifyDriveAccess(credentials, fake.apiUrl);
    await expect.poll(() => h.log.output).toContain("drive access token refreshed");

    const written = everythingWritten();
    for (const secret of [CLIENT.clientSecret, refresh, "ya29.old-secret", fake.issuedAccessTokens[0] ?? "?"]) {
      expect(written).not.toContain(secret);
    }
  });

  it("keeps the secret out of the error when the token endpoint refuses the grant", async () => {
    fake.failNextToken = "invalid_grant";
    const finished = run({}, h.ctx);
    h.stdin.write(`${await consentInBrowser(h.stdout)}\n`);
    const error = (await finished.catch((e: unknown) => e)) as Error;

    expect(error.message).toMatch(/invalid_grant/);
    expect(error.message + everythingWritten()).not.toContain(CLIENT.clientSecret);
  });
});
