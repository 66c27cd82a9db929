import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createMetrics } from "../../src/metrics/metrics.js";
import { parseExposition, type Sample } from "../helpers/prometheus.js";
import { startTestService, type TestService } from "../helpers/service.js";

const RULES = "contrib/prometheus-rules.yml";

/** promtool comes with Debian's `prometheus` package; CI installs it (.ci/run), elsewhere its test skips visibly. */
const hasPromtool = spawnSync("promtool", ["--version"]).status === 0;
const runPromtool = hasPromtool || Boolean(process.env.CI);
if (!runPromtool) console.warn("skipping `promtool check rules`: promtool is not installed (apt-get install prometheus)");

interface Rule {
  alert: string;
  expr: string;
}

/** Each metric an alert expression names, with the label values it selects (`name{label="value"}`). */
function selectors(): Array<{ alert: string; name: string; labels: Record<string, string> }> {
  const doc = parse(readFileSync(RULES, "utf8")) as { groups: Array<{ rules: Rule[] }> };
  return doc.groups.flatMap((g) =>
    g.rules.flatMap((rule) =>
      [...rule.expr.matchAll(/(scanarr_[a-z_]+)(?:\{([^}]*)\})?/g)].map((m) => ({
        alert: rule.alert,
        name: m[1] as string,
        labels: Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1] as string, l[2] as string])),
      })),
    ),
  );
}

/** Whether some sample of `name` carries `labels` (and `target` when given). */
function exported(samples: Sample[], name: string, labels: Record<string, string>): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe("the shipped alert rules", () => {
  it.skipIf(!runPromtool)("pass `promtool check rules`", () => {
    const result = spawnSync("promtool", ["check", "rules", RULES], { encoding: "utf8" });
    expect(result.error).toBeUndefined();
    expect(result.stdout + result.stderr).toContain("SUCCESS: 7 rules found");
    expect(result.status).toBe(0);
  });

  it("are the ones docs/metrics.md shows", () => {
    const rules = readFileSync(RULES, "utf8");
    expect(readFileSync("docs/metrics.md", "utf8")).toContain(`groups:${rules.split("groups:")[1]}`);
  });

  it("watch only metrics a fresh service exports, the counters at 0 for every target and outcome", async () => {
    const metrics = createMetrics({
      targetNames: ["plex", "jellyfin"],
      queueDepth: () => ({ queued: 0 }),
      targets: () => ({ plex: { state: "ok", failures: 0 }, jellyfin: { state: "ok", failures: 0 } }),
      drive: () => ({ running: true }),
      anchors: () => [{ path: "/mnt/unionfs/mounted.bin", present: true }],
    });
    const { samples, types } = parseExposition(await metrics.render());
    const wanted = selectors();
    expect(wanted.length).toBeGreaterThanOrEqual(7);
    for (const { alert, name, labels } of wanted) {
      const found = exported(samples, name, labels);
      expect(found.length, `${alert}: ${name}${JSON.stringify(labels)}`).toBeGreaterThan(0);
      if (types.get(name) !== "counter") continue;
      // A counter by target: one series per target, at 0.
      if (name !== "scanarr_drive_polls_total") expect(found.map((s) => s.labels.target).sort()).toEqual(["jellyfin", "plex"]);
      expect(found.every((s) => s.value === 0)).toBe(true);
    }
  });

  it("find their counters at 0 on a real service's /metrics right after its start", async () => {
    t = await startTestService({ METRICS: { ENABLED: true } });
    const { samples } = parseExposition(await (await fetch(`${t.origin}/metrics`)).text());
    for (const outcome of ["delivered", "failed", "retry", "skipped"])
      expect(exported(samples, "scanarr_deliveries_total", { target: "plex", outcome }).map((s) => s.value)).toEqual([0]);
    for (const outcome of ["confirmed", "unconfirmed"])
      expect(exported(samples, "scanarr_confirmations_total", { target: "plex", outcome }).map((s) => s.value)).toEqual([0]);
    // The queue gauge has every shown state, at 0 on an empty queue.
    expect(exported(samples, "scanarr_queue_scans", { state: "queued" }).map((s) => s.value)).toEqual([0]);
  });
});
