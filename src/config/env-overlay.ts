import { nearestName } from "../lib/edit-distance.js";
import { describeReadError } from "../lib/text-file.js";
import { type EnvKind, valueOfText } from "./env-value.js";
import { type ConfigSources, type EnvSetting, leafSources } from "./env-sources.js";
import { isPlainObject } from "./validate.js";

export type { EnvKind } from "./env-value.js";

/**
 * What the overlay knows of the schema. A path is key names and list
 * indices: `["TARGETS", "0", "TOKEN"]`.
 */
export interface EnvKeyShape {
  /** How a variable's text becomes the value at `path`; undefined when no key is there. */
  kindAt(path: readonly string[]): EnvKind | undefined;
  /** Whether the value at `path` is or holds a secret: its text is never quoted. */
  isSecret(path: readonly string[]): boolean;
  /** The keys of the object at `path` (for "did you mean"); none for anything else. */
  keysAt(path: readonly string[]): readonly string[];
}

export const ENV_PREFIX = "SCANARR_";

/**
 * SCANARR_ variables that are not config keys: the program's own, the ones
 * hooks get (a hook may run scanarr again), and the tests' and benchmarks'
 * (their child processes inherit them).
 * docs/configuration.md lists them.
 */
export const RESERVED_VARIABLES: ReadonlySet<string> = new Set(
  [
    "INSTALL_DIR",
    "DEBUG",
    ...["HOOK", "FOLDER", "SOURCE", "EVENT", "TARGET", "SECTION", "SECTION_TITLE", "ANALYZED_ITEMS", "RESULT", "TRASH", "ERROR", "JSON"],
    ...["FILES", "DELETED_FILES", "MISSING_FILES"].flatMap((list) => [list, `${list}_COUNT`]),
    ...["RECORD_IMPORTS", "CHROMIUM", "SHARED_FIXTURES", "FLAP_SECONDS", "BENCH_ROOT", "BENCH_LOOP_FILE"],
  ].map((name) => `${ENV_PREFIX}${name}`),
);

/**
 * `env` without the variables that set config keys (`SCANARR_<KEY>` and
 * `SCANARR_<KEY>_FILE`): what child processes (hooks, the command target,
 * the Plex Media Scanner) inherit, so a secret given in the environment
 * reaches no program but scanarr. The reserved names stay.
 */
export function withoutConfigVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith(ENV_PREFIX) || RESERVED_VARIABLES.has(name)));
}

export interface EnvOverlay {
  config: Record<string, unknown>;
  sources: ConfigSources;
  problems: string[];
}

interface Assignment {
  segments: string[];
  variable: string;
  fromFile: boolean;
}

/**
 * Lays the SCANARR_ variables of `env` over `raw` (the file after
 * normalisation, before validation) and says where each value came from.
 * `SCANARR_<KEY>_FILE` reads the value from a file (`readFile`), trailing
 * line breaks removed. `raw` is not changed.
 */
export function overlayEnv(
  raw: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  shape: EnvKeyShape,
  readFile: (file: string) => string,
): EnvOverlay {
  const config = structuredClone(raw);
  const problems: string[] = [];
  const assignments: Assignment[] = [];
  for (const [variable, text] of Object.entries(env).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!variable.startsWith(ENV_PREFIX) || text === undefined || RESERVED_VARIABLES.has(variable)) continue;
    const found = resolveVariable(variable, shape);
    if (typeof found === "string") problems.push(found);
    else assignments.push(found);
  }
  const settings: EnvSetting[] = [];
  const claimed = new Map<string, string>();
  for (const assignment of assignments.sort((a, b) => compareSegments(a.segments, b.segments))) {
    const { segments, variable } = assignment;
    const path = dottedPath(segments);
    const twin = claimed.get(path);
    if (twin) {
      problems.push(`${twin} and ${variable} both set ${path}; keep one`);
      continue;
    }
    claimed.set(path, variable);
    const problem = apply(config, assignment, env[variable] ?? "", shape, readFile);
    if (problem) problems.push(`${variable}: ${problem}`);
    else settings.push({ path, variable });
  }
  return { config, sources: { settings, leaves: leafSources(config, settings) }, problems };
}

/** The key a variable names (exact names first, then `<KEY>_FILE`), or the problem with it. */
function resolveVariable(variable: string, shape: EnvKeyShape): Assignment | string {
  const name = variable.slice(ENV_PREFIX.length);
  const direct = segmentsOf(name);
  if (shape.kindAt(direct) !== undefined) return { segments: direct, variable, fromFile: false };
  if (name.endsWith("_FILE")) {
    const viaFile = segmentsOf(name.slice(0, -"_FILE".length));
    if (shape.kindAt(viaFile) !== undefined) return { segments: viaFile, variable, fromFile: true };
  }
  return `${variable}: names no config key${unknownHint(direct, shape)}`;
}

function segmentsOf(name: string): string[] {
  return name.split("__").map((segment) => (/^\d+$/.test(segment) ? String(Number(segment)) : segment));
}

/** ` (did you mean SCANARR_SERVER_PORT?)`, or how a key set only whole is set. */
function unknownHint(segments: readonly string[], shape: EnvKeyShape): string {
  const depth = segments.findIndex((_, i) => shape.kindAt(segments.slice(0, i + 1)) === undefined);
  const parent = segments.slice(0, depth);
  const keys = shape.keysAt(parent);
  const close = nearestName(segments[depth] ?? "", keys);
  if (close) return ` (did you mean ${ENV_PREFIX}${[...parent, close].join("__")}?)`;
  if (parent.length > 0 && keys.length === 0) {
    const whole = `${ENV_PREFIX}${parent.join("__")}`;
    if (shape.kindAt([...parent, "0"]) !== undefined)
      return ` (${dottedPath(parent)} takes an index, as in ${whole}__0, or the whole list as JSON in ${whole})`;
    return ` (${dottedPath(parent)} is set whole, as JSON, in ${whole})`;
  }
  return "";
}

/** The largest file a SCANARR_<KEY>_FILE may name: a secret or a value, never more. */
export const ENV_FILE_MAX_BYTES = 64 * 1024;

/** Sets one value; the problem, without the variable's name, when it cannot. */
function apply(
  config: Record<string, unknown>,
  { segments, fromFile }: Assignment,
  text: string,
  shape: EnvKeyShape,
  readFile: (file: string) => string,
): string | undefined {
  let content = text;
  if (fromFile) {
    if (text.trim() === "") return "names no file";
    try {
      content = readFile(text).replace(/[\r\n]+$/, "");
    } catch (error) {
      return `cannot read ${text}: ${describeReadError(error)}`;
    }
  }
  const kind = shape.kindAt(segments) ?? "string";
  const converted = valueOfText(kind, content, shape.isSecret(segments));
  if ("problem" in converted) return converted.problem;
  return setAt(config, segments, converted.value);
}

/** Puts `value` at `segments`, making the objects and lists on the way; a list grows by one entry at most. */
function setAt(root: Record<string, unknown>, segments: readonly string[], value: unknown): string | undefined {
  let node: unknown = root;
  for (const [i, segment] of segments.entries()) {
    const index = /^\d+$/.test(segment) ? Number(segment) : undefined;
    const here = dottedPath(segments.slice(0, i));
    const last = i === segments.length - 1;
    const fresh = () => (last ? value : /^\d+$/.test(segments[i + 1] ?? "") ? [] : {});
    if (index !== undefined) {
      if (!Array.isArray(node)) return `${here} in the config file is not a list`;
      if (index > node.length) return `${here} has ${node.length} entries, so the next index is ${node.length}`;
      node[index] = last || node[index] === undefined ? fresh() : node[index];
      node = node[index];
    } else {
      if (!isPlainObject(node)) return `${here} in the config file is not an object`;
      node[segment] = last || node[segment] === undefined ? fresh() : node[segment];
      node = node[segment];
    }
  }
  return undefined;
}

/** `TARGETS[0].TOKEN` for `["TARGETS", "0", "TOKEN"]`. */
export function dottedPath(segments: readonly string[]): string {
  return segments.reduce((out, s) => (/^\d+$/.test(s) ? `${out}[${s}]` : out ? `${out}.${s}` : s), "");
}

/** Parents before children, list entries in index order, so `SCANARR_TARGETS__0__TYPE` comes before `__1__`. */
function compareSegments(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i] ?? "", b[i] ?? ""];
    if (x === y) continue;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    return numeric ? Number(x) - Number(y) : x < y ? -1 : 1;
  }
  return a.length - b.length;
}
