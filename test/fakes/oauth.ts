import { createHash, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DRIVE_SPEC } from "./drive.js";
import { checkThen } from "./loopback.js";

/**
 * A loopback Google OAuth 2.0 endpoint: /auth (consent that redirects to the
 * loopback redirect_uri), /token (authorization_code with PKCE,
 * refresh_token, jwt-bearer) and one protected Drive call
 * (/drive/v3/changes/startPageToken) that checks the bearer token, and is
 * checked against Drive's description like the fake Drive.
 * Error answers follow Google's shapes and status codes.
 */
export interface FakeOAuth {
  origin: string;
  authUrl: string;
  tokenUrl: string;
  /** Root URL for `drive({ rootUrl })`. */
  apiUrl: string;
  /** What the next consent does: "allow" redirects with a code, "deny" with error=access_denied. */
  consent: "allow" | "deny";
  /** Makes the next /token call fail like Google would. */
  failNextToken: "invalid_grant" | "server_error" | undefined;
  /** Every /token call, in order. */
  tokenCalls: Array<{ grantType: string; params: Record<string, string> }>;
  /** Access tokens handed out, newest last. */
  issuedAccessTokens: string[];
  addServiceAccount(email: string, publicKeyPem: string): void;
  /** A refresh token the fake will honour, as if an earlier authorization had issued it. */
  seedRefreshToken(): string;
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
}

export async function startFakeOAuth(
  client: { clientId: string; clientSecret: string },
  /** Told of each access token issued (a fake Drive that should accept it). */
  onAccessToken?: (token: string) => void,
): Promise<FakeOAuth> {
  const codes = new Map<string, PendingCode>();
  const refreshTokens = new Set<string>();
  const accessTokens = new Set<string>();
  const serviceAccounts = new Map<string, string>();

  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => send(res, 500, { error: "internal", error_description: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeOAuth = {
    origin,
    authUrl: `${origin}/o/oauth2/v2/auth`,
    tokenUrl: `${origin}/token`,
    apiUrl: `${origin}/`,
    consent: "allow",
    failNextToken: undefined,
    tokenCalls: [],
    issuedAccessTokens: [],
    addServiceAccount: (email, pem) => void serviceAccounts.set(email, pem),
    seedRefreshToken: () => {
      const refresh = `1//0g${randomBytes(24).toString("base64url")}`;
      refreshTokens.add(refresh);
      return refresh;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", origin);
    if (req.method === "GET" && url.pathname === "/o/oauth2/v2/auth") return consent(url.searchParams, res);
    if (req.method === "POST" && url.pathname === "/token") return token(await readForm(req), req, res);
    // Only the Drive call is checked: Google's OAuth endpoints are not in Drive's description (spec-gaps.ts).
    if (req.method === "GET" && url.pathname === "/drive/v3/changes/startPageToken")
      return checkThen(DRIVE_SPEC, { req, url, body: "" }, res, () => startPageToken(req, res));
    send(res, 404, { error: { code: 404, message: "Not Found" } });
  }

  function consent(q: URLSearchParams, res: ServerResponse): void {
    const redirectUri = q.get("redirect_uri") ?? "";
    const problems = [
      q.get("response_type") === "code" ? "" : "response_type",
      q.get("client_id") === client.clientId ? "" : "client_id",
      /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost):\d+\/?$/.test(redirectUri) ? "" : "redirect_uri",
      q.get("code_challenge_method") === "S256" && q.get("code_challenge") ? "" : "code_challenge",
      (q.get("scope") ?? "").split(" ").includes("https://www.googleapis.com/auth/drive") ? "" : "scope",
    ].filter(Boolean);
    if (problems.length > 0) {
      res.writeHead(400, { "content-type": "text/html" }).end(`Error 400: invalid_request (${problems.join(", ")})`);
      return;
    }
    const back = new URL(redirectUri);
    back.searchParams.set("state", q.get("state") ?? "");
    if (fake.consent === "deny") {
      back.searchParams.set("error", "access_denied");
    } else {
      const code = `4/0A${randomBytes(24).toString("base64url")}`;
      codes.set(code, { clientId: client.clientId, redirectUri, challenge: q.get("code_challenge") ?? "", scope: q.get("scope") ?? "" });
      back.searchParams.set("code", code);
      back.searchParams.set("scope", q.get("scope") ?? "");
    }
    res.writeHead(302, { location: back.toString() }).end();
  }

  function token(params: Record<string, string>, req: IncomingMessage, res: ServerResponse): void {
    const grantType = params.grant_type ?? "";
    fake.tokenCalls.push({ grantType, params });
    const failure = fake.failNextToken;
    fake.failNextToken = undefined;
    if (failure === "server_error") return send(res, 503, { error: "server_error", error_description: "Service unavailable" });
    if (failure === "invalid_grant")
      return send(res, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
    if (grantType === "urn:ietf:params:oauth:grant-type:jwt-bearer") return jwtBearer(params.assertion ?? "", res);
    if (!clientAuthenticates(params, req)) return send(res, 401, { error: "invalid_client", error_description: "Unauthorized" });
    if (grantType === "authorization_code") {
      const pending = codes.get(params.code ?? "");
      codes.delete(params.code ?? "");
      const verifierOk =
        pending &&
        createHash("sha256")
          .update(params.code_verifier ?? "")
          .digest("base64url") === pending.challenge;
      if (!pending || !verifierOk || pending.redirectUri !== params.redirect_uri) {
        return send(res, 400, { error: "invalid_grant", error_description: "Bad Request" });
      }
      return send(res, 200, { ...issueAccess(), refresh_token: fake.seedRefreshToken(), scope: pending.scope });
    }
    if (grantType === "refresh_token") {
      if (!refreshTokens.has(params.refresh_token ?? "")) {
        return send(res, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
      }
      return send(res, 200, { ...issueAccess(), scope: "https://www.googleapis.com/auth/drive" });
    }
    send(res, 400, { error: "unsupported_grant_type", error_description: `Invalid grant_type: ${grantType}` });
  }

  function jwtBearer(assertion: string, res: ServerResponse): void {
    const [header = "", payload = "", signature = ""] = assertion.split(".");
    const claims = parseJson(Buffer.from(payload, "base64url").toString("utf8"));
    const pem = typeof claims.iss === "string" ? serviceAccounts.get(claims.iss) : undefined;
    const signed = pem !== undefined && verify("sha256", Buffer.from(`${header}.${payload}`), pem, Buffer.from(signature, "base64url"));
    const now = Math.floor(Date.now() / 1000);
    const timely = typeof claims.exp === "number" && typeof claims.iat === "number" && claims.exp > now && claims.exp - claims.iat <= 3600;
    if (!signed || claims.aud !== fake.tokenUrl || !timely) {
      return send(res, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
    }
    send(res, 200, issueAccess());
  }

  function startPageToken(req: IncomingMessage, res: ServerResponse): void {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!bearer || !accessTokens.has(bearer)) {
      return send(res, 401, {
        error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" },
      });
    }
    send(res, 200, { kind: "drive#startPageToken", startPageToken: "1" });
  }

  function issueAccess(): Record<string, unknown> {
    const access = `ya29.${randomBytes(24).toString("base64url")}`;
    accessTokens.add(access);
    fake.issuedAccessTokens.push(access);
    onAccessToken?.(access);
    return { access_token: access, expires_in: 3599, token_type: "Bearer" };
  }

  function clientAuthenticates(params: Record<string, string>, req: IncomingMessage): boolean {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const [id, secret] = basic ? Buffer.from(basic, "base64").toString("utf8").split(":") : [params.client_id, params.client_secret];
    return id === client.clientId && secret === client.clientSecret;
  }

  return fake;
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}
