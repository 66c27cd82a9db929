import { stat } from "node:fs/promises";
import { readTextFile, readTextFileSync } from "../lib/text-file.js";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { defaultConfig, generateServerPass, withTargetDefaults } from "./defaults.js";
import { ENV_FILE_MAX_BYTES, overlayEnv } from "./env-overlay.js";
import { type ConfigSources, withVariable } from "./env-sources.js";
import { envShapeOf } from "./env-shape.js";
import { JsonSyntaxError, parseJsonWithPosition } from "./json-position.js";
import { mergeDefaults, normalizeRaw } from "./normalize.js";
import { withPlexEntry } from "./plex-entry.js";
import { checkRequirements, checkRules, type ConfigRequirement } from "./rules.js";
import { starterConfigText } from "./starter.js";
import { configSchema, type TargetKinds } from "./target-kind.js";
import type { Config } from "./types.js";
import { isPlainObject, validateValue, type ValidationReport } from "./validate.js";

export type { ConfigRequirement } from "./rules.js";

export interface LoadedConfig {
  /** What the commands run on: the flat PLEX_* keys made a TARGETS entry (plex-entry.ts). */
  config: Config;
  /** The file's keys as written, with the defaults: what `config show` prints and `setup` edits. */
  written: Config;
  file: string;
  /** True when the file did not exist and a default one was written. */
  created: boolean;
  warnings: string[];
  /** Problems of requirements the caller did not ask to enforce (see LoadOptions.require). */
  unmet: string[];
  /** Which values the file and the environment set (the rest are defaults). */
  sources: ConfigSources;
}

export interface LoadOptions {
  generatePass?: () => string;
  /** Write the default file when `file` does not exist (only `serve` on the default path does). */
  create?: boolean;
  /** What the command needs beyond a well-formed file; every requirement by default. */
  require?: readonly ConfigRequirement[];
  /** The environment whose SCANARR_ variables are laid over the file (docs/configuration.md); none when absent. */
  env?: ConfigEnv;
}

export type ConfigEnv = Readonly<Record<string, string | undefined>>;

/** Every problem found in a config file, reported at once (exit code 2), with the warnings found beside them. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    readonly file: string,
    readonly problems: string[],
    message?: string,
    /** What would only have been warned about (ignored plex_autoscan keys, …): shown after the problems. */
    readonly warnings: readonly string[] = [],
  ) {
    super(message ?? describeProblems(file, problems));
  }
}

/** One problem on one line; several as a list. */
function describeProblems(file: string, problems: string[]): string {
  if (problems.length === 1) return `config file ${file}: ${problems[0]}`;
  return `config file ${file} has ${problems.length} problems:\n${problems.map((p) => `  - ${p}`).join("\n")}`;
}

/** The config file is not there and this command may not create it. */
export class ConfigMissingError extends ConfigError {
  override name = "ConfigMissingError";
  constructor(file: string, hint: string) {
    super(file, ["does not exist"], `config file ${file} does not exist; ${hint}`);
  }
}

/**
 * Loads, normalises and validates the config file. A missing file is created
 * with every default (mode 0600: it holds SERVER_PASS) when `create` is set,
 * and is a ConfigMissingError otherwise.
 */
export async function loadConfig(file: string, kinds: TargetKinds, options: LoadOptions = {}): Promise<LoadedConfig> {
  const text = await readTextFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new ConfigError(file, [`cannot be read: ${error.message}`]);
  });
  if (text === undefined) {
    if (!options.create) throw new ConfigMissingError(file, "run `scanarr init` to write a starting config, or check the path");
    const created = await writeStarterConfig(file, (options.generatePass ?? generateServerPass)(), kinds, options.env);
    return { ...created, created: true };
  }
  const loaded = parseConfigText(text, kinds, file, options.require, options.env);
  const mode = (await stat(file)).mode & 0o077;
  if (mode !== 0) loaded.warnings.push(`${file} can be read by other users and holds secrets; run: chmod 600 '${file}'`);
  return loaded;
}

/**
 * Writes the starting config (mode 0600: it holds SERVER_PASS) and returns it
 * loaded. It needs the user's PLEX_TOKEN, so requirements are not enforced.
 */
export async function writeStarterConfig(file: string, pass: string, kinds: TargetKinds, env: ConfigEnv = {}): Promise<LoadedConfig> {
  const text = starterConfigText(pass);
  const loaded = parseConfigText(text, kinds, file, [], env);
  await writeFileAtomic(file, text, { mode: 0o600, forceMode: true });
  return loaded;
}

/**
 * Validates config JSON text; throws ConfigError listing every problem. The
 * requirements in `require` are enforced; the others come back in `unmet`.
 * `kinds` are the target types' own fields and rules (targets/registry.ts
 * TARGET_CONFIGS, given by the caller: config/ does not import targets/).
 * The SCANARR_ variables of `env` are laid over the file; they are never
 * written into it.
 */
export function parseConfigText(
  text: string,
  kinds: TargetKinds,
  file = "config.json",
  require: readonly ConfigRequirement[] = ["server"],
  env: ConfigEnv = {},
): LoadedConfig {
  let raw: unknown;
  try {
    raw = parseJsonWithPosition(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new ConfigError(file, [error.message]);
    throw error;
  }
  const report: ValidationReport = { problems: [], warnings: [] };
  if (!isPlainObject(raw)) throw new ConfigError(file, ["the top level must be a JSON object"]);
  const schema = configSchema(kinds);
  const overlay = overlayEnv(normalizeRaw(raw, report), env, envShapeOf(schema), (name) => readTextFileSync(name, ENV_FILE_MAX_BYTES));
  const normalized = overlay.config;
  report.problems.push(...overlay.problems);
  validateValue(schema, normalized, "", report);
  // Keys with a problem fall back to their defaults, so the rules and requirements are still checked for the rest.
  const broken = new Set(report.problems.map(topKeyOf));
  const usable = Object.fromEntries(Object.entries(normalized).filter(([key]) => !broken.has(key)));
  const config = mergeDefaults(defaultConfig(""), usable);
  config.TARGETS = config.TARGETS.map(withTargetDefaults);
  const later = checkRules(config, kinds);
  const unmet: string[] = [];
  for (const [requirement, problems] of checkRequirements(config, { passGiven: "SERVER_PASS" in normalized })) {
    (require.includes(requirement) ? later : unmet).push(...problems);
  }
  report.problems.push(...later.filter((problem) => !broken.has(topKeyOf(problem))));
  const named = (problems: string[]) => problems.map((problem) => withVariable(problem, overlay.sources.settings));
  if (report.problems.length > 0) throw new ConfigError(file, named(report.problems), undefined, report.warnings);
  return {
    config: withPlexEntry(config),
    written: config,
    file,
    created: false,
    warnings: report.warnings,
    unmet: named(unmet),
    sources: overlay.sources,
  };
}

/** The top-level key a problem is about (`TARGETS` for `TARGETS[0].NAME: …`). */
function topKeyOf(problem: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*/.exec(problem)?.[0] ?? "";
}
