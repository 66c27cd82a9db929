import type { ServerResponse } from "node:http";
import type { QueueEvents } from "../../queue/events.js";

/**
 * Server-sent events for open dashboards: the queue's events after each
 * commit mark the pages stale, and one shared timer tells every open page
 * "changed" at most every half second (a drain commits hundreds of times a
 * second). The streams end when the server stops listening (a drain must not
 * wait for them), and the browser's EventSource reconnects on its own after a
 * restart.
 */
export interface LiveEvents {
  open(res: ServerResponse, listening: () => boolean): void;
  readonly clients: number;
}

const CHECK_MS = 500;
// A comment line now and then keeps proxies from closing an idle stream.
const KEEPALIVE_MS = 25_000;

export function createLiveEvents(events: QueueEvents): LiveEvents {
  const streams = new Map<ServerResponse, () => boolean>();
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  // Commits seen so far; a page is told the count, so two tellings never look alike.
  let commits = 0;
  let told = 0;
  let lastKeepalive = Date.now();

  function check(): void {
    const now = Date.now();
    const changed = commits !== told;
    told = commits;
    const keepalive = now - lastKeepalive >= KEEPALIVE_MS;
    if (keepalive) lastKeepalive = now;
    for (const [res, listening] of streams) {
      if (!listening()) {
        res.end();
        continue;
      }
      if (changed) res.write(`event: changed\ndata: ${commits}\n\n`);
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
          unsubscribe?.();
          unsubscribe = undefined;
        }
      });
      if (!timer) {
        told = commits;
        unsubscribe = events.subscribe(() => {
          commits += 1;
        });
        timer = setInterval(check, CHECK_MS);
        timer.unref();
      }
    },
    get clients() {
      return streams.size;
    },
  };
}
