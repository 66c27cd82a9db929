import type { ServerResponse } from "node:http";

/**
 * Server-sent events for open dashboards: one shared timer compares the
 * database's change counter and tells every open page "changed". The streams
 * end when the server stops listening (a drain must not wait for them), and
 * the browser's EventSource reconnects on its own after a restart.
 */
export interface LiveEvents {
  open(res: ServerResponse, listening: () => boolean): void;
  readonly clients: number;
}

const CHECK_MS = 500;
// A comment line now and then keeps proxies from closing an idle stream.
const KEEPALIVE_MS = 25_000;

export function createLiveEvents(changes: () => number): LiveEvents {
  const streams = new Map<ServerResponse, () => boolean>();
  let timer: NodeJS.Timeout | undefined;
  let last = -1;
  let lastKeepalive = Date.now();

  function check(): void {
    const now = Date.now();
    let current: number;
    try {
      current = changes();
    } catch {
      current = last; // the database is closing; the streams end with the server
    }
    const changed = current !== last;
    last = current;
    const keepalive = now - lastKeepalive >= KEEPALIVE_MS;
    if (keepalive) lastKeepalive = now;
    for (const [res, listening] of streams) {
      if (!listening()) {
        res.end();
        continue;
      }
      if (changed) res.write(`event: changed\ndata: ${current}\n\n`);
      else if (keepalive) res.write(": keepalive\n\n");
    }
  }

  return {
    open(res, listening) {
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" });
      res.write("retry: 2000\n\n");
      streams.set(res, listening);
      res.once("close", () => {
        streams.delete(res);
        if (streams.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      });
      if (!timer) {
        last = changes();
        timer = setInterval(check, CHECK_MS);
        timer.unref();
      }
    },
    get clients() {
      return streams.size;
    },
  };
}
