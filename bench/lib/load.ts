import autocannon from "autocannon";
import { median } from "./median.js";

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

/** One measured run of a case: what the load saw, and serve's share of a core and longest event-loop delay (ms) meanwhile. */
export interface CaseRun {
  summary: LoadSummary;
  serveCpu: number;
  loopMax: number;
}

/** A table row of `runs` (medians of the rounds; non-2xx and errors summed). */
export function formatRow(label: string, runs: readonly CaseRun[]): string {
  const m = (f: (r: CaseRun) => number) => median(runs.map(f));
  const sum = (f: (s: LoadSummary) => number) => runs.reduce((n, r) => n + f(r.summary), 0);
  const rate = m((r) => r.summary.ackPerSec);
  const perRequest = m((r) => (r.serveCpu * 1e6) / Math.max(1, r.summary.ackPerSec));
  return `| ${label} | ${Math.round(rate).toLocaleString("en-US")} | ${m((r) => r.summary.p50)} | ${m((r) => r.summary.p975)} | ${m((r) => r.summary.p99)} | ${m((r) => r.summary.max)} | ${Math.round(m((r) => r.loopMax))} | ${sum((s) => s.non2xx)} | ${sum((s) => s.errors + s.timeouts)} | ${Math.round(m((r) => r.serveCpu) * 100)}% | ${Math.round(perRequest)} |`;
}

export const SUMMARY_HEADER = [
  "| case | 202/s | p50 ms | p97.5 ms | p99 ms | max ms | serve loop max ms | non-2xx | errors | serve CPU | µs CPU/req |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
].join("\n");
