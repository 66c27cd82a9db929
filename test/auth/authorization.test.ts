import { describe, expect, it } from "vitest";
import { computeCodeChallenge, createAuthorizationRequest } from "../../src/auth/authorization-request.js";
import { NotAnAuthorizationAnswer, parsePastedAuthorization } from "../../src/auth/authorization-response.js";
import { classifyGoogleError } from "../../src/auth/errors.js";
import { mergeToken } from "../../src/auth/token-store.js";

const STATE = "s-8Jq2";

describe("authorization request", () => {
  it("computes the S256 challenge of RFC 7636 appendix B", () => {
    expect(computeCodeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("puts every parameter Google needs on the auth URL and keeps the verifier out of it", () => {
    const request = createAuthorizationRequest({
      authUrl: "https://accounts.example/o/oauth2/v2/auth",
      clientId: "cid",
      redirectUri: "http://127.0.0.1:5000/",
    });
    const q = new URL(request.url).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({
      response_type: "code",
      client_id: "cid",
      redirect_uri: "http://127.0.0.1:5000/",
      access_type: "offline",
      prompt: "consent",
      state: request.state,
      code_challenge: computeCodeChallenge(request.codeVerifier),
      code_challenge_method: "S256",
    });
    expect(request.url).not.toContain(request.codeVerifier);
    expect(request.codeVerifier.length).toBeGreaterThanOrEqual(43);
  });

  it("draws a new state and verifier for every attempt", () => {
    const input = { authUrl: "https://a.example/auth", clientId: "c", redirectUri: "http://127.0.0.1:1/" };
    const [a, b] = [createAuthorizationRequest(input), createAuthorizationRequest(input)];
    expect(a.state).not.toBe(b.state);
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
  });
});

describe("pasted authorization", () => {
  it("takes the code from the whole redirected address", () => {
    expect(parsePastedAuthorization(`http://127.0.0.1:53682/?state=${STATE}&code=4/0AbC-d_e&scope=x`, STATE)).toBe("4/0AbC-d_e");
  });

  it("takes the code from a query string without the address", () => {
    expect(parsePastedAuthorization(`?state=${STATE}&code=4%2F0AbC`, STATE)).toBe("4/0AbC");
    expect(parsePastedAuthorization(`code=4/0AbC&state=${STATE}`, STATE)).toBe("4/0AbC");
  });

  it("takes a bare code, decoding it when it was copied percent-encoded", () => {
    expect(parsePastedAuthorization("  4/0AbC-d_e  ", STATE)).toBe("4/0AbC-d_e");
    expect(parsePastedAuthorization("4%2F0AbC", STATE)).toBe("4/0AbC");
  });

  it("refuses an address with another state, or none", () => {
    expect(() => parsePastedAuthorization("http://127.0.0.1:1/?state=other&code=4/x", STATE)).toThrow(/state does not match/);
    expect(() => parsePastedAuthorization("http://127.0.0.1:1/?code=4/x", STATE)).toThrow(/state does not match/);
    expect(() => parsePastedAuthorization("http://127.0.0.1:1/?code=4/x", STATE)).not.toThrow(NotAnAuthorizationAnswer);
  });

  it("reports a denied consent", () => {
    expect(() => parsePastedAuthorization(`http://127.0.0.1:1/?error=access_denied&state=${STATE}`, STATE)).toThrow(/Access was denied/);
  });

  it("asks again for text that is neither a code nor an address, or an address without a code", () => {
    for (const line of ["yes please", "garbage", "0AbC-d_e", `http://127.0.0.1:1/?state=${STATE}`, "http://127.0.0.1:1/"]) {
      expect(() => parsePastedAuthorization(line, STATE), line).toThrow(NotAnAuthorizationAnswer);
    }
  });
});

describe("token merge and error classification", () => {
  it("keeps the stored refresh token when a refresh brings none", () => {
    const stored = { access_token: "old", refresh_token: "keep", expiry_date: 1, token_type: "Bearer" };
    expect(mergeToken(stored, { access_token: "new", expiry_date: 2, refresh_token: null })).toEqual({
      access_token: "new",
      refresh_token: "keep",
      expiry_date: 2,
      token_type: "Bearer",
    });
  });

  it("reads a Drive error body, a token error body and a refused connection", () => {
    const drive = { response: { status: 403, data: { error: { code: 403, message: "User rate limit exceeded." } } } };
    expect(classifyGoogleError(drive)).toEqual({ kind: "denied", status: 403, detail: "HTTP 403: User rate limit exceeded." });
    expect(classifyGoogleError({ response: { status: 400, data: { error: "invalid_grant", error_description: "Bad Request" } } })).toEqual({
      kind: "invalid_grant",
      detail: "Bad Request",
    });
    const refused = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    expect(classifyGoogleError(refused)).toEqual({ kind: "unreachable", detail: "ECONNREFUSED" });
  });
});
