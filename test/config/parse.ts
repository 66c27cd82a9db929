import { loadConfig as loadWith, parseConfigText as parseWith, type LoadOptions } from "../../src/config/load.js";
import type { ConfigRequirement } from "../../src/config/rules.js";
import { TARGET_CONFIGS } from "../../src/targets/registry.js";

/** The loader as the commands call it, with the target types' own fields and rules from the registry. */
export function parseConfigText(text: string, file?: string, require?: readonly ConfigRequirement[]) {
  return parseWith(text, TARGET_CONFIGS, file, require);
}

export function loadConfig(file: string, options?: LoadOptions) {
  return loadWith(file, TARGET_CONFIGS, options);
}
