import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** What the metrics read when scraped; each answer is secret-free by construction (names and counts only). */
export interface MetricsSources {
  /** The configured targets: every counter by target starts at 0 for each of them and each outcome. */
  targetNames?: readonly string[];
  /** Scans per shown state (pending, waiting-for-files, done, …). */
  queueDepth(): Record<string, number>;
  /** Each target's health as the scheduler sees it. */
  targets(): Record<string, { state: string; failures: number }>;
  /** The drive monitor: absent when CLOUD.ENABLED is false. */
  drive?(): { running: boolean } | undefined;
  /** Each configured anchor as last checked: absent when none is configured, undefined before the first check. */
  anchors?(): Array<{ path: string; present: boolean }> | undefined;
}

/** Outcomes of one webhook or manual request; "unmatched": answered 200 on /triggers/* though no library holds it. */
export type RequestOutcome = "queued" | "ignored" | "test" | "refused" | "unmatched";
/** Outcomes of one delivery attempt. */
export const DELIVERY_OUTCOMES = ["delivered", "failed", "retry", "skipped"] as const;
export type DeliveryOutcomeLabel = (typeof DELIVERY_OUTCOMES)[number];
const CONFIRMATION_OUTCOMES = ["confirmed", "unconfirmed"] as const;
const POLL_OUTCOMES = ["ok", "failed"] as const;

export interface ScanMetrics {
  readonly registry: Registry;
  request(source: string, outcome: RequestOutcome): void;
  delivery(target: string, outcome: DeliveryOutcomeLabel, latencySeconds: number | undefined, sinceRequestSeconds: number): void;
  /** A confirmation ended; a confirmed one with the time from the scan's first request. */
  confirmation(target: string, outcome: "confirmed" | "unconfirmed", sinceRequestSeconds: number | undefined): void;
  /** A cloud-drive poll ended. */
  drivePoll(ok: boolean): void;
  /** The Prometheus text exposition. */
  render(): Promise<string>;
}

// Request sources are the trigger names; anything else would let a caller mint label values.
const KNOWN_SOURCES = new Set([
  "sonarr",
  "radarr",
  "lidarr",
  "readarr",
  "manual",
  "watch",
  "drive",
  "autoscan",
  "autopulse",
  "a-train",
  "unknown",
]);

/** A registry of its own per service (not prom-client's global one), so two services in one process never mix. */
export function createMetrics(sources: MetricsSources): ScanMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: "scanarr_requests_total",
    help: "Scan requests received (webhooks, manual, triggers), by source and outcome.",
    labelNames: ["source", "outcome"] as const,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: "scanarr_deliveries_total",
    help: "Delivery attempts by target and outcome (delivered, failed, retry, skipped).",
    labelNames: ["target", "outcome"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "scanarr_delivery_duration_seconds",
    help: "How long one delivery to a target took, from claim to outcome.",
    labelNames: ["target"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const endToEnd = new Histogram({
    name: "scanarr_request_to_delivered_seconds",
    help: "From the first request of a scan to its delivery to a target (includes the debounce).",
    labelNames: ["target"] as const,
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600],
    registers: [registry],
  });
  const confirmations = new Counter({
    name: "scanarr_confirmations_total",
    help: "After-scan confirmations by target and outcome (confirmed, unconfirmed).",
    labelNames: ["target", "outcome"] as const,
    registers: [registry],
  });
  const toConfirmed = new Histogram({
    name: "scanarr_request_to_confirmed_seconds",
    help: "From the first request of a scan to the media server confirming it (includes the debounce).",
    labelNames: ["target"] as const,
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600],
    registers: [registry],
  });
  const drivePolls = new Counter({
    name: "scanarr_drive_polls_total",
    help: "Cloud-drive polls by outcome (ok, failed).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "scanarr_queue_scans",
    help: "Scans in the queue and its history, by state.",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [state, n] of Object.entries(sources.queueDepth())) this.set({ state }, n);
    },
  });
  new Gauge({
    name: "scanarr_target_up",
    help: "1 when the target answers, 0 while it is unavailable or misconfigured.",
    labelNames: ["target"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [target, t] of Object.entries(sources.targets())) this.set({ target }, t.state === "ok" ? 1 : 0);
    },
  });
  new Gauge({
    name: "scanarr_target_consecutive_failures",
    help: "Failed rounds of deliveries in a row per target (calls in flight together count once).",
    labelNames: ["target"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [target, t] of Object.entries(sources.targets())) this.set({ target }, t.failures);
    },
  });
  if (sources.drive) {
    const drive = sources.drive;
    new Gauge({
      name: "scanarr_drive_monitor_up",
      help: "1 while the cloud-drive monitor runs, 0 when it stopped on a problem.",
      registers: [registry],
      collect() {
        const state = drive();
        if (state) this.set(state.running ? 1 : 0);
      },
    });
  }
  if (sources.anchors) registerAnchorGauges(registry, sources.anchors);
  // Every series an alert rule watches exists from the start at 0 (contrib/prometheus-rules.yml):
  // `increase(...) > 0` cannot see a first failure on a series that appears with it.
  for (const target of sources.targetNames ?? []) {
    for (const outcome of DELIVERY_OUTCOMES) deliveries.labels({ target, outcome }).inc(0);
    for (const outcome of CONFIRMATION_OUTCOMES) confirmations.labels({ target, outcome }).inc(0);
  }
  if (sources.drive) for (const outcome of POLL_OUTCOMES) drivePolls.labels({ outcome }).inc(0);
  return {
    registry,
    request: (source, outcome) => requests.inc({ source: KNOWN_SOURCES.has(source) ? source : "other", outcome }),
    delivery(target, outcome, latencySeconds, sinceRequestSeconds) {
      deliveries.inc({ target, outcome });
      if (latencySeconds !== undefined) latency.observe({ target }, latencySeconds);
      if (outcome === "delivered") endToEnd.observe({ target }, sinceRequestSeconds);
    },
    confirmation(target, outcome, sinceRequestSeconds) {
      confirmations.inc({ target, outcome });
      if (sinceRequestSeconds !== undefined) toConfirmed.observe({ target }, sinceRequestSeconds);
    },
    drivePoll: (ok) => drivePolls.inc({ outcome: ok ? "ok" : "failed" }),
    render: () => registry.metrics(),
  };
}

/** Anchor paths are the user's own configured list (not secrets), so the label set stays as bounded as the config. */
function registerAnchorGauges(registry: Registry, anchors: NonNullable<MetricsSources["anchors"]>): void {
  new Gauge({
    name: "scanarr_anchor_up",
    help: "1 while the anchor (ANCHORS, PLEX_EMPTY_TRASH_CONTROL_FILES) is there, 0 while it is missing; absent before the first check.",
    labelNames: ["anchor"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const a of anchors() ?? []) this.set({ anchor: a.path }, a.present ? 1 : 0);
    },
  });
  new Gauge({
    name: "scanarr_anchors_missing",
    help: "Anchors missing at the last check; scans are held while it is above 0.",
    registers: [registry],
    collect() {
      const list = anchors();
      if (list) this.set(list.filter((a) => !a.present).length);
    },
  });
}
