import autocannon from "autocannon";

export interface LoadOptions {
  /** Full URL, e.g. http://127.0.0.1:PORT/PASS */
  url: string;
  connections: number;
  /** Either a fixed duration or a fixed number of requests. */
  durationSec?: number;
  amount?: number;
  /** The body of the n-th request (0-based, across all connections). */
  bodyOf: (n: number) => string;
}

export interface LoadSummary {
  /** 202 answers per second over the run. */
  ackPerSec: number;
  /** Wall time of the run in seconds. */
  seconds: number;
  acked: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50: number;
  p975: number;
  p99: number;
  max: number;
  statusCodes: Record<string, number>;
  /** Requests sent (bodies handed out), which bounds the folders the server may have queued. */
  sent: number;
}

/** Posts JSON bodies over `connections` keep-alive connections for `durationSec` seconds or `amount` requests. */
export async function runLoad(options: LoadOptions): Promise<LoadSummary> {
  let sent = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount === undefined ? { duration: options.durationSec ?? 10 } : { amount: options.amount }),
    timeout: 10,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "Sonarr/4.0.14.2939" },
        setupRequest: (request) => ({ ...request, body: options.bodyOf(sent++) }),
      },
    ],
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  const acked = statusCodes["202"] ?? 0;
  return {
    ackPerSec: acked / result.duration,
    seconds: result.duration,
    acked,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p50: result.latency.p50,
    p975: result.latency.p97_5,
    p99: result.latency.p99,
    max: result.latency.max,
    statusCodes,
    sent,
  };
}

/** One row of the ingest table; `serveCpu` is the share of one core the server used during the run. */
/** A table row; `loopMax` is serve's longest event-loop delay during the run (ms). */
export function formatSummary(label: string, s: LoadSummary, serveCpu: number, loopMax: number): string {
  const rate = Math.round(s.ackPerSec).toLocaleString("en-US");
  const perRequest = Math.round((serveCpu * 1e6) / Math.max(1, s.ackPerSec));
  return `| ${label} | ${rate} | ${s.p50} | ${s.p975} | ${s.p99} | ${s.max} | ${Math.round(loopMax)} | ${s.non2xx} | ${s.errors + s.timeouts} | ${Math.round(serveCpu * 100)}% | ${perRequest} |`;
}

export const SUMMARY_HEADER = [
  "| case | 202/s | p50 ms | p97.5 ms | p99 ms | max ms | serve loop max ms | non-2xx | errors | serve CPU | µs CPU/req |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
].join("\n");
