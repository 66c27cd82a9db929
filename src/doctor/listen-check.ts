import { createServer } from "node:net";
import type { DoctorCheck } from "./types.js";

/** SERVER_IP:SERVER_PORT can be bound now, or is held by a scanarr that answers /health there. */
export const listenCheck: DoctorCheck = {
  name: "listen",
  async run(ctx) {
    const name = "listen";
    const { SERVER_IP: host, SERVER_PORT: port } = ctx.config;
    const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
    if (port === 0) return [{ name, ok: true, detail: "SERVER_PORT is 0: a free port is picked at start (and logged)" }];
    const failure = await tryBind(host, port);
    if (failure === undefined) return [{ name, ok: true, detail: `${address} is free for scanarr serve` }];
    if (failure === "EADDRINUSE") {
      const status = await scanarrHealth(host, port);
      if (status !== undefined)
        return [{ name, ok: true, detail: `${address} is in use by a running scanarr (its /health says ${status})` }];
      return [
        {
          name,
          ok: false,
          detail: `${address} is in use by another program (plex_autoscan still running?); stop it or change SERVER_PORT`,
        },
      ];
    }
    if (failure === "EADDRNOTAVAIL")
      return [{ name, ok: false, detail: `SERVER_IP ${host} is not an address of this machine (use 0.0.0.0 for all)` }];
    if (failure === "EACCES")
      return [{ name, ok: false, detail: `${address}: ports below 1024 need privileges; pick another SERVER_PORT` }];
    return [{ name, ok: false, detail: `${address} cannot be bound: ${failure}` }];
  },
};

/** Binds and closes at once; the error code when binding fails. */
function tryBind(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/** The `status` a scanarr at host:port answers on /health (ok or degraded), or undefined when none answers within 3 s. */
export async function scanarrHealth(host: string, port: number): Promise<string | undefined> {
  const reach = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  try {
    const response = await fetch(`http://${reach}:${port}/health`, { signal: AbortSignal.timeout(3_000) });
    const body = (await response.json()) as { status?: unknown };
    return typeof body.status === "string" ? body.status : undefined;
  } catch {
    return undefined;
  }
}
