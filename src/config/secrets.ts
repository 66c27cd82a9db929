import { SHORTEST_MASKED } from "../lib/mask.js";
import { CONFIG_SCHEMA, secretOf, type Spec } from "./schema.js";
import type { Config } from "./types.js";
import { isPlainObject } from "./validate.js";

/** Parts of a secret URL this long are tokens (Discord's is 68 characters); "/api" or "/hooks" are not. */
const SHORTEST_URL_TOKEN = 16;

/** Dotted paths of every secret the schema declares, lists written `[*]`: `PLEX_TOKEN`, `TARGETS[*].TOKEN`, … */
export function secretPathsOf(spec: Spec = CONFIG_SCHEMA, at = ""): string[] {
  if (secretOf(spec) !== undefined) return [at];
  if (spec.kind === "object") return Object.entries(spec.fields).flatMap(([key, field]) => secretPathsOf(field, at ? `${at}.${key}` : key));
  if (spec.kind === "list") return secretPathsOf(spec.item, `${at}[*]`);
  return [];
}

/**
 * The pino redaction paths for the config's secrets: each path at the top of
 * a log object and under a `config` key, and a nested key also by its own
 * name (a line may log `{ RC_PASS }` or a target entry without its parents). Every path is explicit: a leading `*.` wildcard costs about 0.7 µs
 * on every log line, each (27 such paths took a webhook's line from 5 to
 * 20 µs), for a shape nothing logs.
 */
export function secretLogPaths(spec: Spec = CONFIG_SCHEMA): string[] {
  const paths = secretPathsOf(spec).flatMap((path) => {
    const forms = [path, `config.${path}`];
    const leaf = path.split(".").pop() ?? path;
    if (leaf !== path) forms.push(leaf);
    return forms;
  });
  return [...new Set(paths)];
}

/**
 * Every secret value of `config` a text could quote (an error echoing a
 * token, a URL with its path): doctor and notifications mask them out of
 * what they show. A secret URL gives its token-like parts, so its host stays
 * readable.
 */
export function secretValuesOf(config: Config, spec: Spec = CONFIG_SCHEMA): string[] {
  const found: string[] = [];
  collect(spec, config, found);
  return [...new Set(found)].filter((value) => value.length >= SHORTEST_MASKED);
}

function collect(spec: Spec, value: unknown, found: string[]): void {
  if (spec.kind === "object" && isPlainObject(value)) {
    for (const [key, field] of Object.entries(spec.fields)) collect(field, value[key], found);
  } else if (spec.kind === "list" && Array.isArray(value)) {
    for (const item of value) collect(spec.item, item, found);
  } else if (secretOf(spec) !== undefined && typeof value === "string") {
    found.push(...(spec.kind === "url" ? urlTokens(value) : [value]));
  }
}

function urlTokens(text: string): string[] {
  if (!URL.canParse(text)) return [text];
  const url = new URL(text);
  return [...url.pathname.split("/"), ...url.searchParams.values(), url.password].filter((p) => p.length >= SHORTEST_URL_TOKEN);
}
