import type { Batch } from "./batch.js";
import type { NotifyEvent } from "./events.js";

/** Discord refuses a `content` longer than this. */
export const DISCORD_CONTENT_LIMIT = 2_000;
/** Folders, targets or anchors named per kind of event; the rest are counted. */
const NAMED = 5;

/**
 * The Discord webhook body: one line per kind of event, with counts. No
 * mention is ever resolved (a folder named "@everyone" stays text), and the
 * content is cut at a line to fit Discord's limit.
 */
export function formatDiscord(batch: Batch): { content: string; username: string; allowed_mentions: { parse: never[] } } {
  const lines = linesOf(batch);
  return { content: fitLines(lines), username: "scanarr", allowed_mentions: { parse: [] } };
}

function linesOf(batch: Batch): string[] {
  const lines: string[] = [];
  const of = <T extends NotifyEvent["type"]>(type: T) =>
    batch.events.filter((e): e is Extract<NotifyEvent, { type: T }> => e.type === type);
  const scans = (type: "scan-failed" | "scan-unconfirmed", verb: string) => {
    const n = batch.counts[type] ?? 0;
    if (n === 0) return;
    const events = of(type);
    const named = events.slice(0, NAMED).map((e) => `${code(e.folder)} on ${text(e.target)} (${text(e.error)})`);
    lines.push(`**${n} ${n === 1 ? "scan" : "scans"} ${verb}**: ${named.join("; ")}${more(n, named.length)}`);
  };
  scans("scan-failed", "failed");
  scans("scan-unconfirmed", "unconfirmed (files not as expected in Plex)");
  for (const e of of("target-down")) {
    lines.push(`**Target ${text(e.target)} is down** (${e.state}) since ${when(e.since)}; ${e.failures} failed attempts in a row`);
  }
  for (const e of of("target-up")) lines.push(`**Target ${text(e.target)} is back** (down since ${when(e.since)})`);
  for (const e of of("anchors-missing")) {
    const named = e.missing.slice(0, NAMED).map((m) => `${code(m.path)} (${text(m.reason)})`);
    lines.push(`**Anchors missing**, scans are held: ${named.join("; ")}${more(e.missing.length, named.length)}`);
  }
  for (const e of of("anchors-back"))
    lines.push(`**Anchors back**: ${e.paths.slice(0, NAMED).map(code).join(", ")}${more(e.paths.length, NAMED)}`);
  for (const e of of("drive-failing")) lines.push(`**Drive monitoring is failing**: ${text(e.problem)}`);
  if (of("drive-back").length > 0) lines.push("**Drive monitoring works again**");
  return lines;
}

function fitLines(lines: string[]): string {
  const kept: string[] = [];
  let length = 0;
  for (const [i, line] of lines.entries()) {
    const tail = i < lines.length - 1 ? `\n… and ${lines.length - i} more lines` : "";
    const cut = line.length > 1_000 ? `${line.slice(0, 999)}…` : line;
    if (length + cut.length + 1 + tail.length > DISCORD_CONTENT_LIMIT) {
      kept.push(`… and ${lines.length - i} more lines`);
      break;
    }
    kept.push(cut);
    length += cut.length + 1;
  }
  return kept.join("\n");
}

const more = (total: number, named: number) => (total > named ? `; and ${total - named} more` : "");

/** Discord renders `<t:…:R>` as a relative time in the reader's own zone. */
const when = (ms: number) => `<t:${Math.floor(ms / 1000)}:R>`;

/** A path as inline code; a backtick inside would end it early. */
const code = (path: string) => `\`${path.replace(/`/g, "'")}\``;

/** Free text with Discord's markdown characters escaped. */
const text = (s: string) => s.replace(/([\\*_~|`>#[\]()])/g, "\\$1");
