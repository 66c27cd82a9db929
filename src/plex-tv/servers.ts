import type { Library } from "../domain.js";
import { messageOf } from "../lib/errors.js";
import { PlexApiClient } from "../targets/plex/api.js";
import type { PlexConnection, PlexResource } from "./client.js";

/** A Plex server scanarr can scan with: an owned server, one of its addresses that answered, and its own token. */
export interface ReachedServer {
  name: string;
  url: string;
  /** The server's access token from plex.tv (never the account's). */
  token: string;
  libraries: Library[];
}

/** The account's own servers: players, clients and servers shared with the account are left out (their tokens cannot scan). */
export function ownedServers(resources: readonly PlexResource[]): PlexResource[] {
  return resources.filter((r) => r.provides.includes("server") && r.owned && r.accessToken !== undefined);
}

/** Local addresses first, then remote ones, relays last (a relay is slow and capped). */
export function connectionOrder(connections: readonly PlexConnection[]): PlexConnection[] {
  const rank = (c: PlexConnection): number => (c.relay ? 2 : c.local ? 0 : 1);
  return [...connections].sort((a, b) => rank(a) - rank(b));
}

/**
 * Tries the server's connections in order and returns the first that answers
 * `/identity` as this server and lists its libraries with the server's
 * token; throws with what each address answered when none does.
 */
export async function reachServer(server: PlexResource, timeoutMs: number, fetchFn?: typeof fetch): Promise<ReachedServer> {
  const token = server.accessToken ?? "";
  const tried: string[] = [];
  for (const connection of connectionOrder(server.connections)) {
    const api = new PlexApiClient({
      baseUrl: connection.uri,
      token,
      timeoutMs,
      fetch: fetchFn,
      urlKey: "the address",
      tokenKey: "the server's token",
    });
    try {
      const identity = await api.identity();
      if (identity.machineIdentifier !== server.clientIdentifier) {
        tried.push(`${connection.uri}: another server answered (${identity.machineIdentifier || "no id"})`);
        continue;
      }
      return { name: server.name, url: connection.uri, token, libraries: await api.listLibraries() };
    } catch (error) {
      tried.push(`${connection.uri}: ${messageOf(error)}`);
    }
  }
  const list = tried.length > 0 ? tried.map((t) => `\n  ${t}`).join("") : " (plex.tv listed no address)";
  throw new Error(`no address of Plex server "${server.name}" answered:${list}`);
}
