import type { ServerResponse } from "node:http";
import { sendJson, startLoopback, type FakeRequest } from "./loopback.js";

/** A resource as plex.tv lists it (round3.md §2): servers, players and clients in one bare array. */
export interface FakeResource {
  name: string;
  product?: string;
  clientIdentifier: string;
  provides: string;
  owned: boolean;
  accessToken?: string;
  connections: Array<{ uri: string; local: boolean; relay: boolean }>;
}

export interface FakePlexTvOptions {
  /** The account's token, handed out when a PIN is signed in. */
  accountToken?: string;
  /** A PIN turns signed in on this poll (1 = the first look); 0 or absent: only when signIn() is called. */
  signInAfterPolls?: number;
  /** A PIN expires after this many polls (plex.tv then answers 404 for it). */
  expireAfterPolls?: number;
  resources?: FakeResource[];
}

export interface FakePlexTv {
  url: string;
  accountToken: string;
  /** Every request: method, path and query, and the client identifier it carried. */
  requests: Array<{ method: string; url: string; clientId: string | undefined; token: string | undefined }>;
  /** Signs in every open PIN now. */
  signIn(): void;
  setResources(resources: FakeResource[]): void;
  close(): Promise<void>;
}

interface Pin {
  id: number;
  code: string;
  clientId: string;
  polls: number;
  signedIn: boolean;
}

const CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/**
 * plex.tv on loopback, as much of it as the PIN sign-in needs: `POST
 * /api/v2/pins` (400 without X-Plex-Client-Identifier or X-Plex-Product; a
 * 4-character code unless `strong=true`), `GET /api/v2/pins/{id}` (404 for
 * another client identifier or once expired; `authToken` after the set
 * number of polls), `GET /api/v2/user` and `GET /api/v2/resources` (401
 * without the account's X-Plex-Token).
 */
export async function startFakePlexTv(options: FakePlexTvOptions = {}): Promise<FakePlexTv> {
  const accountToken = options.accountToken ?? "plex-tv-account-token-ACCOUNT";
  let resources = options.resources ?? [];
  const pins = new Map<number, Pin>();
  const requests: FakePlexTv["requests"] = [];
  const header = (request: FakeRequest, name: string): string | undefined => {
    const value = request.req.headers[name.toLowerCase()];
    return typeof value === "string" && value !== "" ? value : undefined;
  };

  const handle = (request: FakeRequest, res: ServerResponse): void => {
    const { req, url } = request;
    const clientId = header(request, "X-Plex-Client-Identifier");
    if (!clientId || !header(request, "X-Plex-Product")) {
      return sendJson(res, 400, { errors: [{ code: 1000, message: "X-Plex-Client-Identifier is missing" }] });
    }
    if (req.method === "POST" && url.pathname === "/api/v2/pins") {
      const id = 1000 + pins.size;
      const length = url.searchParams.get("strong") === "true" ? 25 : 4;
      const code = Array.from({ length }, (_, i) => CODE_LETTERS[(id * 7 + i * 13) % CODE_LETTERS.length]).join("");
      pins.set(id, { id, code, clientId, polls: 0, signedIn: false });
      return sendJson(res, 201, renderPin(pins.get(id) as Pin, accountToken));
    }
    const pinMatch = /^\/api\/v2\/pins\/(\d+)$/.exec(url.pathname);
    if (req.method === "GET" && pinMatch) {
      const pin = pins.get(Number(pinMatch[1]));
      if (!pin || pin.clientId !== clientId) return sendJson(res, 404, { errors: [{ code: 1020, message: "Code not found or expired" }] });
      pin.polls += 1;
      if (options.expireAfterPolls !== undefined && pin.polls > options.expireAfterPolls) {
        return sendJson(res, 404, { errors: [{ code: 1020, message: "Code not found or expired" }] });
      }
      if (options.signInAfterPolls && pin.polls >= options.signInAfterPolls) pin.signedIn = true;
      return sendJson(res, 200, renderPin(pin, accountToken));
    }
    if (header(request, "X-Plex-Token") !== accountToken)
      return sendJson(res, 401, { errors: [{ code: 1001, message: "User could not be authenticated" }] });
    if (req.method === "GET" && url.pathname === "/api/v2/user")
      return sendJson(res, 200, { id: 1, username: "owner", email: "owner@example.com" });
    if (req.method === "GET" && url.pathname === "/api/v2/resources") return sendJson(res, 200, resources.map(renderResource));
    sendJson(res, 404, { errors: [{ code: 1002, message: "Not found" }] });
  };

  const server = await startLoopback(
    handle,
    (request) =>
      requests.push({
        method: request.req.method ?? "GET",
        url: request.req.url ?? "/",
        clientId: header(request, "X-Plex-Client-Identifier"),
        token: header(request, "X-Plex-Token"),
      }),
    // The description's plex.tv operations sit under its server https://plex.tv/api/v2.
    { server: "plex-tv", label: "plex.tv", pathOf: (url) => (url.pathname.startsWith("/api/v2/") ? url.pathname.slice(7) : undefined) },
  );
  return {
    url: server.url,
    accountToken,
    requests,
    signIn() {
      for (const pin of pins.values()) pin.signedIn = true;
    },
    setResources(next) {
      resources = next;
    },
    close: () => server.close(),
  };
}

function renderPin(pin: Pin, accountToken: string): Record<string, unknown> {
  const created = new Date();
  return {
    id: pin.id,
    code: pin.code,
    product: "scanarr",
    trusted: false,
    clientIdentifier: pin.clientId,
    expiresIn: 1800,
    createdAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + 1_800_000).toISOString(),
    authToken: pin.signedIn ? accountToken : null,
    newRegistration: null,
  };
}

/** A resource with every field the description's PlexDevice requires. */
function renderResource(r: FakeResource): Record<string, unknown> {
  const server = r.provides.includes("server");
  return {
    name: r.name,
    product: r.product ?? (server ? "Plex Media Server" : "Plex for Android"),
    productVersion: "1.41.0.8992",
    platform: server ? "Linux" : "Android",
    platformVersion: server ? "6.1.0" : "14",
    device: server ? "PC" : "Pixel 8",
    clientIdentifier: r.clientIdentifier,
    createdAt: "2024-01-01T00:00:00Z",
    lastSeenAt: "2025-01-01T00:00:00Z",
    provides: r.provides,
    ownerId: r.owned ? 1 : 2,
    sourceTitle: r.owned ? "owner" : "friend",
    publicAddress: "203.0.113.7",
    owned: r.owned,
    // The description types it a string; scanarr reads "" as no token, like a missing one.
    accessToken: r.accessToken ?? "",
    home: false,
    synced: false,
    relay: true,
    publicAddressMatches: true,
    dnsRebindingProtection: false,
    natLoopbackSupported: false,
    httpsRequired: false,
    presence: true,
    connections: r.connections.map((c) => {
      const url = new URL(c.uri);
      return {
        protocol: url.protocol.replace(":", ""),
        address: url.hostname,
        port: Number(url.port),
        uri: c.uri,
        local: c.local,
        relay: c.relay,
        IPv6: false,
      };
    }),
  };
}

/** The fake Plex server's machineIdentifier (plex-render.ts), which an owned resource must carry. */
export const FAKE_PLEX_MACHINE_ID = "fakeplex0123456789abcdef";

/**
 * An account's resources as plex.tv lists them: a player, a server shared
 * with the account (its token cannot scan) and the account's own server
 * "home", whose addresses are a relay, the fake Plex as a remote address,
 * and `deadUrl` as the local one (listed last, tried first).
 */
export function accountResources(plex: { url: string; token: string; sharedToken: string }, deadUrl: string): FakeResource[] {
  return [
    { name: "phone", clientIdentifier: "phone-1", provides: "player,pubsub-client", owned: true, connections: [] },
    {
      name: "friend's server",
      clientIdentifier: "friend-1",
      provides: "server",
      owned: false,
      accessToken: plex.sharedToken,
      connections: [{ uri: plex.url, local: true, relay: false }],
    },
    {
      name: "home",
      clientIdentifier: FAKE_PLEX_MACHINE_ID,
      provides: "server",
      owned: true,
      accessToken: plex.token,
      connections: [
        { uri: `${plex.url}/relay`, local: false, relay: true },
        { uri: plex.url, local: false, relay: false },
        { uri: deadUrl, local: true, relay: false },
      ],
    },
  ];
}
