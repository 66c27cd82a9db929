import { HttpError } from "./http-error.js";
import type { RequestContext, Route } from "./types.js";

/** GET /metrics: the Prometheus text format, when METRICS.ENABLED. */
export async function handleMetrics({ res, deps }: RequestContext): Promise<void> {
  if (!deps.metrics) throw new HttpError(404, "metrics are off; set METRICS.ENABLED to true");
  const text = await deps.metrics.render();
  res.writeHead(200, {
    "content-type": deps.metrics.registry.contentType,
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

export const metricsRoutes: Route[] = [{ methods: ["GET"], path: "/metrics", auth: "none", handler: handleMetrics }];
