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

/** What both importers read out of the other tool's config, before it becomes scanarr's. */
export interface ImportModel {
  port?: number;
  ip?: string;
  login?: { username: string; password: string };
  /** Seconds of quiet before a scan (autoscan's minimum-age, autopulse's timer). */
  scanDelay?: number;
  anchors: string[];
  triggers: Array<{ name: string; type: TriggerType }>;
  /** From where requests come in (*arr, manual, A-Train, watched folders) to the tool's own paths. */
  inboundRules: Rule[];
  watches: ModelWatch[];
  targets: ModelTarget[];
  /** Lines of "not converted" for the report. */
  notes: string[];
}

export function emptyModel(): ImportModel {
  return { anchors: [], triggers: [], inboundRules: [], watches: [], targets: [], notes: [] };
}
