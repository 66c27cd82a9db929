import { html, joinHtml, type SafeHtml } from "../../lib/html.js";
import { HOUR_MS, type ConfirmLatency, type HourCount } from "../../queue/views/history-stats.js";
import { elapsedText } from "../views/elapsed.js";
import { type ChartSeries, renderBarChart } from "../views/svg-chart.js";
import type { DashboardDeps } from "./deps.js";

const DAY_HOURS = 24;
const WEEK_HOURS = 7 * DAY_HOURS;
const FINISHED = ["done", "unconfirmed", "failed", "cancelled"] as const;

/**
 * How long one reading of the statistics is shown. An open page reloads its
 * live part after every change to the queue (up to twice a second in a
 * drain), and a week of a busy history costs tens of milliseconds to count
 * (bench/dashboard.ts); hourly bars need no fresher figures.
 */
export const ACTIVITY_REFRESH_MS = 15_000;
const shown = new WeakMap<object, { period: number; html: SafeHtml }>();

/** Today's totals, scans per hour and target (24 hours, 7 days) and the time to confirmation, from the history. */
export function renderActivity(deps: Pick<DashboardDeps, "stats" | "targetNames">, now: number): SafeHtml {
  const period = Math.floor(now / ACTIVITY_REFRESH_MS);
  const last = shown.get(deps.stats);
  if (last?.period === period) return last.html;
  const markup = readActivity(deps, now);
  shown.set(deps.stats, { period, html: markup });
  return markup;
}

function readActivity(deps: Pick<DashboardDeps, "stats" | "targetNames">, now: number): SafeHtml {
  const { stats } = deps;
  const thisHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const weekStart = thisHour - (WEEK_HOURS - 1) * HOUR_MS;
  const dayStart = thisHour - (DAY_HOURS - 1) * HOUR_MS;
  const names = deps.targetNames();
  const perHour = stats.deliveriesPerHour(names, weekStart, now + 1);
  const today = stats.finishedByState(startOfLocalDay(now), now + 1);
  const totals = joinHtml(
    FINISHED.map((state) => html`<span class="total state-${state}" data-total="${state}"><b>${today[state] ?? 0}</b> ${state}</span>`),
    " ",
  );
  const day = chart("chart-day", "Scans per hour and target, last 24 hours", dayStart, DAY_HOURS, names, perHour, (i) =>
    i % 6 === 5 || i === 0 ? (i === DAY_HOURS - 1 ? "now" : `−${DAY_HOURS - 1 - i} h`) : undefined,
  );
  const week = chart("chart-week", "Scans per hour and target, last 7 days", weekStart, WEEK_HOURS, names, perHour, (i) =>
    i % DAY_HOURS === 0 ? `−${7 - i / DAY_HOURS} d` : i === WEEK_HOURS - 1 ? "now" : undefined,
  );
  const latency = [
    latencyText("last 24 hours", stats.confirmLatency(dayStart, now + 1)),
    latencyText("last 7 days", stats.confirmLatency(weekStart, now + 1)),
  ];
  return html`<section id="activity"><h2>Activity</h2>
<p id="today">Finished today: ${totals}</p>
<div class="charts">${day}${week}</div>
<h3>From request to confirmed</h3><ul id="latency">${latency}</ul></section>`;
}

function chart(
  id: string,
  title: string,
  start: number,
  hours: number,
  names: string[],
  counts: HourCount[],
  tick: (i: number) => string | undefined,
): SafeHtml {
  const index = new Map(names.map((name, k) => [name, k]));
  const series: Array<ChartSeries & { values: number[] }> = names.map((name) => ({ name, values: Array<number>(hours).fill(0) }));
  for (const c of counts) {
    const i = (c.hour - start) / HOUR_MS;
    const k = index.get(c.target);
    if (i < 0 || i >= hours || k === undefined) continue;
    (series[k] as { values: number[] }).values[i] = c.n;
  }
  const labels = Array.from({ length: hours }, (_, i) => hourLabel(start + i * HOUR_MS));
  const ticks = labels.flatMap((_, i) => {
    const text = tick(i);
    return text === undefined ? [] : [[i, text] as const];
  });
  return renderBarChart({ id, title, labels, ticks, series, bucketName: "Hour (UTC)" });
}

function latencyText(window: string, l: ConfirmLatency): SafeHtml {
  if (l.count === 0 || l.medianMs === null || l.p95Ms === null)
    return html`<li>${window}: no confirmed scan (only targets that confirm, such as Plex, count)</li>`;
  return html`<li data-latency="${window}">${window}: median <b>${elapsedText(l.medianMs)}</b>, 95th percentile <b>${elapsedText(l.p95Ms)}</b> (${l.count} confirmed)</li>`;
}

function hourLabel(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 13).replace("T", " ")}:00`;
}

/** Midnight of the service's local day: "today" as the clock on its wall says. */
function startOfLocalDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}
