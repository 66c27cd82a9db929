import { startLoopback, type LoopbackServer } from "./loopback.js";

/** One answer the receiver gives; 204 with no body when nothing is scripted. */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface ReceivedMessage {
  path: string;
  contentType: string | undefined;
  body: unknown;
}

export interface WebhookReceiver extends LoopbackServer {
  /** Messages in arrival order (answered with whatever status). */
  received: ReceivedMessage[];
  /** The next answers, used one per request. */
  answer(...answers: ReceiverAnswer[]): void;
  /** Resolves with the `count`-th message (1-based) once it has arrived; rejects after `timeoutMs`. */
  message(count: number, timeoutMs?: number): Promise<ReceivedMessage>;
}

/**
 * A webhook endpoint (Discord's or a generic one) on 127.0.0.1: records each
 * JSON POST and answers as scripted, e.g. 500 once, then 429 with
 * Retry-After, then 204 as Discord does.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedMessage[] = [];
  const script: ReceiverAnswer[] = [];
  const waiters: Array<() => void> = [];
  const server = await startLoopback(({ req, url, body }, res) => {
    received.push({ path: url.pathname, contentType: req.headers["content-type"], body: JSON.parse(body) as unknown });
    const answer = script.shift() ?? { status: 204 };
    res.writeHead(answer.status, { ...(answer.body ? { "content-type": "application/json" } : {}), ...answer.headers });
    res.end(answer.body ?? "");
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    ...server,
    received,
    answer: (...answers) => script.push(...answers),
    async message(count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for message ${count} (got ${received.length})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50).unref();
        });
      }
      return received[count - 1] as ReceivedMessage;
    },
  };
}
