import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { buildAuthorizeArgs, encodeGoStringMap, normalizeToken, parseAuthorizeOutput } from "../../src/rclone/token.js";
import { sharedFixture } from "../helpers/shared-fixtures.js";
import { hasRclone } from "./rclone-cli.js";

const TOKEN = '{"access_token":"ya29.FAKE","token_type":"Bearer","refresh_token":"1//FAKE","expiry":"2030-01-01T00:00:00.123456789Z"}';
const fixtures = sharedFixture("rclone", "the rclone transcript tests");

describe("rclone authorize blob and token paste", () => {
  it("builds the blob rclone prints: compact sorted JSON of non-default options, base64 without padding", () => {
    expect(buildAuthorizeArgs({ type: "drive", scope: "drive", client_id: "", token: TOKEN })).toEqual([
      "drive",
      "eyJzY29wZSI6ImRyaXZlIn0",
    ]);
    expect(buildAuthorizeArgs({ scope: "" })).toEqual(["drive"]);
    expect(encodeGoStringMap({ z: "1", a: "<&>" })).toBe('{"a":"\\u003c\\u0026\\u003e","z":"1"}');
  });

  it("accepts the raw token JSON, the base64 blob, and either one between the marker lines", () => {
    const blob = Buffer.from(JSON.stringify({ token: TOKEN, root_folder_id: "appDataFolder" }))
      .toString("base64")
      .replace(/=+$/, "");
    expect(parseAuthorizeOutput(TOKEN)).toEqual({ token: TOKEN, extra: {} });
    expect(parseAuthorizeOutput(blob)).toEqual({ token: TOKEN, extra: { root_folder_id: "appDataFolder" } });
    const block = `Paste the following into your remote machine --->\n${blob.slice(0, 40)}\n${blob.slice(40)}\n<---End paste\n`;
    expect(parseAuthorizeOutput(block).token).toBe(TOKEN);
  });

  it.skipIf(!fixtures.run)("reads the block rclone 1.60 printed in the recorded authorize session", () => {
    const output = readFileSync(fixtures.file("rclone-1.60-authorize-output.txt"), "utf8");
    expect(JSON.parse(parseAuthorizeOutput(output).token)).toMatchObject({
      access_token: "ya29.LOCALFAKE",
      refresh_token: "1//LOCALREFRESH",
    });
  });

  it("refuses other text with rclone's hint about matching versions", () => {
    expect(() => parseAuthorizeOutput("4/0AbCdEf-auth-code")).toThrow("make sure you are using a matching version of rclone on both sides");
    expect(() => parseAuthorizeOutput('{"token_type":"Bearer"}')).toThrow("no access_token");
    expect(() => parseAuthorizeOutput('{"access_token":"a","expiry":""}')).toThrow("RFC 3339");
  });

  it("stores the token fields in rclone's order and converts the old capitalised form", () => {
    expect(normalizeToken('{"expiry":"2030-01-01T00:00:00Z","refresh_token":"r","access_token":"a","token_type":"Bearer"}')).toBe(
      '{"access_token":"a","token_type":"Bearer","refresh_token":"r","expiry":"2030-01-01T00:00:00Z"}',
    );
    expect(normalizeToken('{"AccessToken":"a","RefreshToken":"r","Expiry":"2030-01-01T00:00:00+01:00"}')).toBe(
      '{"access_token":"a","refresh_token":"r","expiry":"2030-01-01T00:00:00+01:00"}',
    );
  });
});

describe.skipIf(!hasRclone)("rclone authorize against a loopback OAuth server", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it("prints output that the token paste reads, using the blob we build", async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/auth") {
        const back = new URL(url.searchParams.get("redirect_uri") ?? "");
        back.searchParams.set("code", "fake-code");
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { location: back.toString() }).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: "ya29.LOOPBACK", token_type: "Bearer", refresh_token: "1//LOOP", expires_in: 3599 }));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const args = buildAuthorizeArgs({
      scope: "drive",
      client_id: "test-id",
      client_secret: "test-secret",
      auth_url: `${base}/auth`,
      token_url: `${base}/token`,
    });
    const child = execa("rclone", ["authorize", ...args, "--auth-no-open-browser"], { reject: false, env: { RCLONE_CONFIG: "/dev/null" } });
    const link = await new Promise<string>((resolve) => {
      let seen = "";
      child.stderr!.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /http:\/\/127\.0\.0\.1:53682\/auth\?state=\S+/.exec(seen);
        if (match) resolve(match[0]);
      });
    });
    // rclone may shut its listener down as soon as it has the code, before the
    // browser's last response completes; what matters is what rclone prints.
    await fetch(link)
      .then((r) => r.text())
      .catch(() => undefined);
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(parseAuthorizeOutput(result.stdout).token)).toMatchObject({
      access_token: "ya29.LOOPBACK",
      token_type: "Bearer",
      refresh_token: "1//LOOP",
    });
  });
});
