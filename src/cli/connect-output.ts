import type { ArrApp, ArrConnection, ConnectResult } from "../arr/index.js";
import { ARR_KIND_INFO } from "../arr/index.js";
import { createSecretMasker } from "../lib/mask.js";

/** "onEpisodeFileDelete" → "On Episode File Delete", close to the apps' own labels. */
export function eventLabel(flag: string): string {
  return flag.replace(/^on/, "On").replace(/([a-z])([A-Z])/g, "$1 $2");
}

/** "Sonarr 4.0.19 (4K) at http://…". */
export function describeApp(app: ArrApp): string {
  const name = ARR_KIND_INFO[app.kind].appName;
  const instance = app.instanceName && app.instanceName !== name ? ` "${app.instanceName}"` : "";
  return `${name} ${app.version}${instance} at ${app.url}`;
}

/** A text with SERVER_PASS shown as `<SERVER_PASS>`, as written and URL-encoded. */
export function hidePass(pass: string): (text: string) => string {
  return createSecretMasker([pass, encodeURIComponent(pass)], "<SERVER_PASS>");
}

/** The lines `scanarr connect` prints for one app. */
export function connectLines(app: ArrApp, result: ConnectResult, name: string, shownUrl: string): string[] {
  const appName = ARR_KIND_INFO[app.kind].appName;
  const verb = { created: "created", updated: "updated", unchanged: "unchanged:" }[result.action];
  const lines = [
    `${describeApp(app)}: ${verb} the Webhook connection "${name}" (id ${result.id}) to ${shownUrl}`,
    `  events: ${result.events.map(eventLabel).join(", ")}`,
  ];
  lines.push(
    result.tested
      ? `  ${appName}'s own test reached scanarr at that URL.`
      : `  Saved WITHOUT ${appName}'s test: scanarr is not running (or --no-test). Start scanarr, then press Test in ${appName} (Settings > Connect > ${name}) or run this command again.`,
  );
  const rest = result.note
    ?.split("; ")
    .filter((note) => !note.startsWith("saved without"))
    .map((note) => `  note: ${note}`);
  return [...lines, ...(rest ?? [])];
}

/** The lines `scanarr connect --list` prints for one app. */
export function listLines(app: ArrApp, connections: readonly ArrConnection[], hide: (text: string) => string): string[] {
  if (connections.length === 0) return [`${describeApp(app)}: no connection points at this scanarr`];
  const lines = [`${describeApp(app)}: ${connections.length} connection(s) to this scanarr`];
  for (const c of connections) {
    lines.push(`  "${c.name}" (id ${c.id}) → ${hide(c.url)}`);
    lines.push(`    events: ${c.events.length > 0 ? c.events.map(eventLabel).join(", ") : "none"}`);
    if (c.missing.length > 0) lines.push(`    missing (scans lost): ${c.missing.map(eventLabel).join(", ")}`);
    if (c.extra.length > 0) lines.push(`    not needed (scanarr ignores them): ${c.extra.map(eventLabel).join(", ")}`);
  }
  return lines;
}
