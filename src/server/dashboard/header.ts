import { html, type SafeHtml } from "../../lib/html.js";
import type { HealthBody, TargetState } from "../health.js";
import type { DashboardDeps } from "./deps.js";

/** Good, needs a look, broken: the colour of a fact in the header (`.tone-ok`, `.tone-warn`, `.tone-bad`). */
type Tone = "ok" | "warn" | "bad";

const TARGET_WORDS: Record<TargetState | "misconfigured", [string, Tone]> = {
  ok: ["answering", "ok"],
  unknown: ["not answered yet", "warn"],
  unavailable: ["unreachable", "bad"],
  refused: ["refuses its credentials", "bad"],
  misconfigured: ["refuses its credentials", "bad"],
};

/**
 * The page's header: each target, the anchors and drive monitoring in words
 * and colour, the same verdict GET /health answers (with the reasons when it
 * is "degraded"), and links to /health and /metrics. `root` is the relative
 * address of the service's root from the page.
 */
export function renderHealthHeader(deps: Pick<DashboardDeps, "health" | "status">, root: string): SafeHtml {
  const body = deps.health?.();
  const facts = body ? fromHealth(body) : fromStatus(deps.status());
  const overall = body
    ? body.status === "ok"
      ? fact("overall", "scanarr", "all good", "ok")
      : fact("overall", "scanarr", "degraded", "bad")
    : "";
  const reasons = body?.reasons?.length ? html`<ul id="reasons">${body.reasons.map((r) => html`<li>${r}</li>`)}</ul>` : "";
  return html`<header id="health"><ul class="facts">${overall}${facts}</ul>${reasons}
<p class="links"><a href="${root}health">/health</a> · <a href="${root}metrics">/metrics</a></p></header>`;
}

function fact(kind: string, name: string, words: string, tone: Tone, title?: string): SafeHtml {
  return html`<li class="fact tone-${tone}" data-fact="${kind}" data-name="${name}"${title && html` title="${title}"`}><span class="dot" aria-hidden="true"></span><b>${name}</b> <span class="words">${words}</span></li>`;
}

function targetFact(name: string, state: TargetState | "misconfigured", failures: number | undefined): SafeHtml {
  const [words, tone] = TARGET_WORDS[state];
  const more = failures ? `, ${failures} failure${failures === 1 ? "" : "s"} in a row` : "";
  return fact("target", name, `${words}${more}`, failures && tone === "ok" ? "warn" : tone);
}

function fromHealth(body: HealthBody): SafeHtml[] {
  const out = Object.entries(body.targets).map(([name, t]) => targetFact(name, t.state, t.failures));
  if (out.length === 0) out.push(fact("target", "targets", "none configured", "bad"));
  const anchors = body.anchors;
  if (anchors) {
    const checked = anchors.checkedAt ? `checked ${anchors.checkedAt}` : "not checked yet";
    out.push(
      anchors.ok
        ? fact("anchors", "anchors", anchors.checkedAt ? "all present" : "not checked yet", anchors.checkedAt ? "ok" : "warn", checked)
        : fact("anchors", "anchors", `missing: ${anchors.missing.join(", ")}`, "bad", checked),
    );
  }
  const drive = body.drive;
  if (drive?.enabled) {
    const [words, tone]: [string, Tone] = !drive.running
      ? ["not running", "bad"]
      : drive.lastPollOk === false
        ? ["running, the last poll failed", "bad"]
        : drive.lastPollOk === undefined
          ? ["running, first poll not finished", "warn"]
          : ["running", "ok"];
    out.push(fact("drive", "drive monitoring", words, tone));
  }
  return out;
}

/** Without the /health facts (a page built on the scheduler's view alone). */
function fromStatus(status: ReturnType<DashboardDeps["status"]>): SafeHtml[] {
  const out = Object.entries(status.targets).map(([name, t]) =>
    targetFact(name, t.state in TARGET_WORDS ? (t.state as TargetState) : "unknown", t.failures),
  );
  const drive = status.drive as { running?: boolean; problem?: string } | undefined;
  if (drive?.running === true) out.push(fact("drive", "drive monitoring", "running", "ok"));
  else if (drive?.problem) out.push(fact("drive", "drive monitoring", `not running: ${drive.problem}`, "bad"));
  return out;
}
