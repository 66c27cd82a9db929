import { html, joinHtml, type SafeHtml } from "../../lib/html.js";

/** One stacked part of every bar (a target), one value per bucket. */
export interface ChartSeries {
  name: string;
  values: readonly number[];
}

export interface BarChartInput {
  /** The element id; the title and table are tied to it. */
  id: string;
  /** Read out by screen readers and shown as the caption. */
  title: string;
  /** One per bucket: what the table's first column says ("2026-11-25 14:00 UTC"). */
  labels: readonly string[];
  /** Axis labels under some buckets: [bucket index, text]. */
  ticks: ReadonlyArray<readonly [number, string]>;
  series: readonly ChartSeries[];
  /** The first column's heading in the table ("Hour"). */
  bucketName: string;
}

const WIDTH = 600;
const HEIGHT = 150;
const LEFT = 30;
const BOTTOM = 18;
const TOP = 8;
/** Colours cycle through this many CSS classes (`.series-0` …), so light and dark themes choose them. */
const COLOURS = 6;

/**
 * A stacked bar chart as inline SVG, drawn on the server: no script, no
 * library. It carries a `<title>`, and the same numbers follow as a table
 * (folded) for anyone who cannot see the bars; buckets where every series
 * is 0 are left out of the table.
 */
export function renderBarChart(input: BarChartInput): SafeHtml {
  const { id, title, labels, series } = input;
  const totals = labels.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = plotWidth / Math.max(1, labels.length);
  const barWidth = Math.max(1, step * 0.8);
  const y = (v: number) => TOP + plotHeight - (v / max) * plotHeight;
  const bars: SafeHtml[] = [];
  labels.forEach((label, i) => {
    let base = 0;
    series.forEach((s, k) => {
      const v = s.values[i] ?? 0;
      if (v === 0) return;
      const top = y(base + v);
      bars.push(
        html`<rect class="series-${k % COLOURS}" x="${fix(LEFT + i * step + (step - barWidth) / 2)}" y="${fix(top)}" width="${fix(barWidth)}" height="${fix(y(base) - top)}"><title>${label}: ${s.name} ${v}</title></rect>`,
      );
      base += v;
    });
  });
  // The last bucket's label ends at the right edge rather than running past it.
  const ticks = input.ticks.map(([i, text]) =>
    i === labels.length - 1
      ? html`<text x="${WIDTH}" y="${HEIGHT - 4}" text-anchor="end">${text}</text>`
      : html`<text x="${fix(LEFT + i * step + step / 2)}" y="${HEIGHT - 4}" text-anchor="middle">${text}</text>`,
  );
  const axis = html`<line x1="${LEFT}" y1="${TOP + plotHeight}" x2="${WIDTH}" y2="${TOP + plotHeight}"/><text x="${LEFT - 4}" y="${TOP + 8}" text-anchor="end">${max}</text><text x="${LEFT - 4}" y="${TOP + plotHeight}" text-anchor="end">0</text>`;
  const legend = series.map((s, k) => html`<li><span class="swatch series-${k % COLOURS}"></span>${s.name}</li>`);
  return html`<figure class="chart" id="${id}"><figcaption id="${id}-title">${title}</figcaption>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-svg-title"><title id="${id}-svg-title">${title}: ${describe(series, totals)}</title>${axis}${joinHtml(bars, "")}${ticks}</svg>
${series.length > 1 && html`<ul class="legend">${legend}</ul>`}${table(input, totals)}</figure>`;
}

function table(input: BarChartInput, totals: number[]): SafeHtml {
  const rows = input.labels.flatMap((label, i) =>
    totals[i] === 0 ? [] : [html`<tr><td>${label}</td>${input.series.map((s) => html`<td>${s.values[i] ?? 0}</td>`)}</tr>`],
  );
  const body = rows.length > 0 ? rows : html`<tr><td colspan="${input.series.length + 1}">none</td></tr>`;
  return html`<details><summary>As a table</summary><table class="chart-table"><thead><tr><th>${input.bucketName}</th>${input.series.map((s) => html`<th>${s.name}</th>`)}</tr></thead><tbody>${body}</tbody></table></details>`;
}

function describe(series: readonly ChartSeries[], totals: number[]): string {
  const sum = totals.reduce((a, b) => a + b, 0);
  if (sum === 0) return "none";
  const parts = series.map((s) => `${s.name} ${s.values.reduce((a, b) => a + b, 0)}`);
  return `${sum} in all (${parts.join(", ")}), at most ${Math.max(...totals)} in one`;
}

/** Coordinates to two decimals: shorter markup, same picture. */
function fix(n: number): string {
  return String(Math.round(n * 100) / 100);
}
