import type { PathTrace } from "../../paths/trace.js";
import { html, type SafeHtml } from "../../lib/html.js";
import { FORM_TOKEN_FIELD } from "../same-origin.js";
import type { PageInput } from "./page-input.js";

/** The page's tools, each under its own heading: scan a path, trace a path, filter the history, clear old history. */
export function renderTools(input: PageInput): SafeHtml {
  const { view } = input;
  const token = html`<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${view.formToken}">`;
  const manual = input.allowManual
    ? html`<form method="post" action="" id="manual"><input type="hidden" name="eventType" value="Manual">${token}
<label for="filepath">Path</label><input type="text" id="filepath" name="filepath" required placeholder="/data/Movies/Movie Name (2010)/">
<button type="submit" id="submit">Scan</button></form><p class="hint">A media-server, mount or drive path; a file is scanned through its folder, rewritten by SERVER_PATH_MAPPINGS.</p>`
    : html`<p>Manual scans are off (SERVER_ALLOW_MANUAL_SCAN).</p>`;
  return html`<section id="tools"><h2>Tools</h2><div class="tools">
<div class="tool"><h3>Scan a path</h3>${manual}</div>
<div class="tool"><h3>Trace a path</h3><form method="get" action="" id="tester"><label for="trace-path">Path</label><input type="text" id="trace-path" name="trace" placeholder="as scanarr map does" value="${input.trace?.input ?? ""}"><button type="submit">Trace</button></form>
${traceResult(input.trace)}</div>
<div class="tool"><h3>Filter the history</h3>${filterForm(input)}</div>
<div class="tool"><h3>Clear old history</h3><form method="post" action="${view.prefix}actions/clear-history" id="clear" class="action" data-action="clear-history">${token}
<label for="clear-days">Older than (days)</label><input type="number" name="days" min="1" step="1" value="30" required id="clear-days"> <button type="submit">Clear</button></form></div>
</div></section>`;
}

function filterForm(input: PageInput): SafeHtml {
  const { filter } = input.query;
  const option = (value: string, current: string | undefined, label = value) =>
    html`<option value="${value}"${value === (current ?? "") && html` selected`}>${label}</option>`;
  const states = ["", "done", "unconfirmed", "failed", "cancelled"].map((s) => option(s, filter.state, s || "any state"));
  const sources = ["", "sonarr", "radarr", "lidarr", "readarr", "manual", "watch", "drive"].map((s) =>
    option(s, filter.source, s || "any source"),
  );
  const targets = ["", ...input.deps.targetNames()].map((s) => option(s, filter.target, s || "any target"));
  return html`<form method="get" action="" id="filter" class="wrap"><label>State <select name="state">${states}</select></label><label>Source <select name="source">${sources}</select></label>
<label>Target <select name="target">${targets}</select></label><label class="grow">Folder contains <input type="text" name="q" value="${filter.text ?? ""}"></label><button type="submit">Filter history</button></form>`;
}

function traceResult(trace: PathTrace | undefined): SafeHtml | "" {
  if (!trace) return "";
  const lines = [`input: ${trace.input}`];
  if (trace.rewrite)
    lines.push(`rewritten by ${trace.rewrite.rule} (${trace.rewrite.from} → ${trace.rewrite.to}): ${trace.rewrite.result}`);
  if (trace.error) lines.push(`cannot be scanned: ${trace.error}`);
  if (trace.mapping) lines.push(`mapped by ${trace.mapping.key} → ${trace.mapping.prefix}`);
  if (trace.serverPath) lines.push(`media-server path: ${trace.serverPath}`);
  if (trace.ignoredBy) lines.push(`ignored by SERVER_IGNORE_LIST entry ${trace.ignoredBy}`);
  if (trace.filteredBy) lines.push(`not scanned: ${trace.filteredBy}`);
  if (trace.folder) lines.push(`folder to scan: ${trace.folder}${trace.kind ? ` (${trace.kind.why})` : ""}`);
  for (const t of trace.targets) {
    if (t.rewrite) lines.push(`${t.target}: rewritten by ${t.rewrite.rule} (${t.rewrite.from} → ${t.rewrite.to})`);
    lines.push(
      t.library
        ? `${t.target}: ${t.path} → library ${t.library.title} (${t.library.location})`
        : `${t.target}: ${t.path} → not scanned: ${t.why}`,
    );
  }
  return html`<pre id="trace">${lines.join("\n")}</pre>`;
}
