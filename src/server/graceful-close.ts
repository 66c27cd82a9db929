import type { Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";

/**
 * How long a connection must have been quiet (no request since it opened or
 * since its last answer) before a draining server closes it. A client that
 * just connected or just got an answer may be sending a request on it right
 * now; closing the connection then would reset that request.
 */
export const IDLE_GRACE_MS = 250;

export interface ConnectionDrain {
  /**
   * Stops accepting connections, answers every request already received (each
   * answer says Connection: close), closes each connection once it is idle,
   * and after `limitMs` closes whatever is left. Resolves with how many
   * connections had to be cut at the limit.
   */
  drain(limitMs: number): Promise<{ forced: number }>;
}

interface Connection {
  active: Set<ServerResponse>;
  quietSince: number;
  timer?: NodeJS.Timeout;
}

/** Follows the server's connections from now on; call before listen(). */
export function trackConnections(server: Server, idleGraceMs = IDLE_GRACE_MS): ConnectionDrain {
  const connections = new Map<Socket, Connection>();
  let draining = false;

  server.on("connection", (socket: Socket) => {
    const connection: Connection = { active: new Set(), quietSince: Date.now() };
    connections.set(socket, connection);
    socket.once("close", () => {
      clearTimeout(connection.timer);
      connections.delete(socket);
    });
  });
  // Before the request handler, so even an answer sent synchronously carries Connection: close.
  server.prependListener("request", (req, res) => {
    if (draining) res.setHeader("connection", "close");
    const connection = connections.get(req.socket);
    if (!connection) return;
    connection.active.add(res);
    res.once("close", () => {
      connection.active.delete(res);
      connection.quietSince = Date.now();
      if (draining) closeWhenIdle(req.socket, connection);
    });
  });

  function closeWhenIdle(socket: Socket, connection: Connection): void {
    clearTimeout(connection.timer);
    if (connection.active.size > 0 || socket.destroyed) return;
    const wait = connection.quietSince + idleGraceMs - Date.now();
    if (wait <= 0) {
      socket.destroy();
      return;
    }
    connection.timer = setTimeout(() => closeWhenIdle(socket, connection), wait);
  }

  return {
    drain(limitMs) {
      draining = true;
      return new Promise((resolve) => {
        let forced = 0;
        const limit = setTimeout(() => {
          forced = connections.size;
          for (const socket of connections.keys()) socket.destroy();
        }, limitMs);
        // http.Server#close would also close idle keep-alive connections at once, racing a client
        // that is sending on one; net.Server#close only stops accepting, and calls back once the
        // last connection has closed. http.Server#close then clears the server's own timers.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(limit);
          server.close();
          resolve({ forced });
        });
        for (const [socket, connection] of connections) {
          for (const res of connection.active) if (!res.headersSent) res.setHeader("connection", "close");
          closeWhenIdle(socket, connection);
        }
      });
    },
  };
}
