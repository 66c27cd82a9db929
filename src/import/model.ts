import type { TargetType } from "../domain.js";
import type { TriggerType } from "../config/types.js";

/** One rewrite rule as the other tool wrote it (a regular expression and its replacement). */
export interface Rule {
  from: string;
  to: string;
  /** Where it came from, for the report: `triggers.sonarr[0].rewrite[1]`. */
  where: string;
}

export interface ModelTarget {
  type: TargetType;
  name: string;
  url: string;
  token?: string;
  username?: string;
  password?: string;
  /** From the tool's own paths to the paths this server sees. */
  rules: Rule[];
}

export interface ModelWatch {
  paths: string[];
  mode: "events" | "poll";
  minAge?: number;
  ignore: string[];
}

/** What one source (a trigger, the watched folders, an A-Train drive) set for its requests. */
export interface ModelSource {
  /** From the path the source sends to the tool's own path, first match wins. */
  rules: Rule[];
  /** In scanarr's scale already: lower is delivered first. */
  priority?: number;
  /** Seconds before its scans, instead of the global delay. */
  delay?: number;
  include: string[];
  exclude: string[];
}

/** What both importers read out of the other tool's config, before it becomes scanarr's. */
export interface ImportModel {
  port?: number;
  ip?: string;
  login?: { username: string; password: string };
  /** Seconds of quiet before a scan (autoscan's minimum-age, autopulse's timer). */
  scanDelay?: number;
  anchors: string[];
  triggers: Array<{ name: string; type: TriggerType }>;
  /** Per scanarr source name (sonarr, a /triggers/ name, manual, a-train, a-train/<drive>, watch). */
  sources: Map<string, ModelSource>;
  watches: ModelWatch[];
  targets: ModelTarget[];
  /** Lines of "not converted" for the report. */
  notes: string[];
}

export function emptyModel(): ImportModel {
  return { anchors: [], triggers: [], sources: new Map(), watches: [], targets: [], notes: [] };
}

/** The model's entry for source `name`, made on first use. */
export function sourceOf(model: ImportModel, name: string): ModelSource {
  let source = model.sources.get(name);
  if (!source) {
    source = { rules: [], include: [], exclude: [] };
    model.sources.set(name, source);
  }
  return source;
}
