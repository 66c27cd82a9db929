import { createHash, randomBytes } from "node:crypto";

/** Full Drive scope: monitoring must see every file, not only ones the app created. */
export const DRIVE_SCOPE = "https://www.googleapis.com/auth/drive";

/** One authorization attempt: what goes into the URL and what must come back. */
export interface AuthorizationRequest {
  url: string;
  redirectUri: string;
  /** Random value the redirect must carry back unchanged. */
  state: string;
  /** PKCE secret sent only with the code exchange. */
  codeVerifier: string;
}

export interface AuthorizationRequestInput {
  authUrl: string;
  clientId: string;
  redirectUri: string;
}

/** Builds a PKCE (S256) authorization-code request for offline Drive access. */
export function createAuthorizationRequest(input: AuthorizationRequestInput): AuthorizationRequest {
  const codeVerifier = randomBytes(64).toString("base64url");
  const state = randomBytes(24).toString("base64url");
  const url = new URL(input.authUrl);
  const params: Record<string, string> = {
    response_type: "code",
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: DRIVE_SCOPE,
    // Without offline access there is no refresh token; without consent a
    // repeat grant returns none either.
    access_type: "offline",
    prompt: "consent",
    state,
    code_challenge: computeCodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return { url: url.toString(), redirectUri: input.redirectUri, state, codeVerifier };
}

/** The S256 challenge of a PKCE verifier (RFC 7636 §4.2). */
export function computeCodeChallenge(codeVerifier: string): string {
  return createHash("sha256").update(codeVerifier).digest("base64url");
}

/** The loopback redirect Google documents for Desktop clients. */
export function formatLoopbackRedirect(port: number): string {
  return `http://127.0.0.1:${port}/`;
}
