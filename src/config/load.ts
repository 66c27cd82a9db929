import { readFile, stat } from "node:fs/promises";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { defaultConfig, generateServerPass, withTargetDefaults } from "./defaults.js";
import { JsonSyntaxError, parseJsonWithPosition } from "./json-position.js";
import { mergeDefaults, normalizeRaw } from "./normalize.js";
import { checkRules } from "./rules.js";
import { CONFIG_SCHEMA } from "./schema.js";
import type { Config } from "./types.js";
import { isPlainObject, validateValue, type ValidationReport } from "./validate.js";

export interface LoadedConfig {
  config: Config;
  file: string;
  /** True when the file did not exist and a default one was written. */
  created: boolean;
  warnings: string[];
}

/** Every problem found in a config file, reported at once (exit code 2). */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    super(`config file ${file} has ${count}:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/**
 * Loads, normalises and validates the config file. A missing file is created
 * with every default (mode 0600: it holds SERVER_PASS) and loaded.
 */
export async function loadConfig(file: string, options: { generatePass?: () => string } = {}): Promise<LoadedConfig> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new ConfigError(file, [`cannot be read: ${error.message}`]);
  });
  if (text === undefined) {
    const config = defaultConfig((options.generatePass ?? generateServerPass)());
    await writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, forceMode: true });
    return { config, file, created: true, warnings: [] };
  }
  const loaded = parseConfigText(text, file);
  const mode = (await stat(file)).mode & 0o077;
  if (mode !== 0) loaded.warnings.push(`${file} can be read by other users and holds secrets; run: chmod 600 '${file}'`);
  return loaded;
}

/** Validates config JSON text; throws ConfigError listing every problem. */
export function parseConfigText(text: string, file = "config.json"): LoadedConfig {
  let raw: unknown;
  try {
    raw = parseJsonWithPosition(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new ConfigError(file, [error.message]);
    throw error;
  }
  const report: ValidationReport = { problems: [], warnings: [] };
  if (!isPlainObject(raw)) throw new ConfigError(file, ["the top level must be a JSON object"]);
  const normalized = normalizeRaw(raw, report);
  validateValue(CONFIG_SCHEMA, normalized, "", report);
  if (report.problems.length > 0) throw new ConfigError(file, report.problems);
  const config = mergeDefaults(defaultConfig(""), normalized);
  config.TARGETS = config.TARGETS.map(withTargetDefaults);
  if (!("SERVER_PASS" in normalized))
    report.problems.push("SERVER_PASS: missing; set a random string of 32 characters (scanarr writes one on first run)");
  report.problems.push(...checkRules(config));
  if (report.problems.length > 0) throw new ConfigError(file, report.problems);
  return { config, file, created: false, warnings: report.warnings };
}
