import { maskSecret, maskUrlPath } from "../lib/mask.js";
import { CONFIG_SCHEMA, secretOf, type Spec } from "./schema.js";
import type { Config } from "./types.js";
import { isPlainObject } from "./validate.js";

/**
 * A copy of the config safe to print: every secret the schema declares
 * shows only its last four characters, a secret URL only its scheme and host,
 * a hash only whether it is set.
 */
export function maskConfig(config: Config): Config {
  return maskValue(CONFIG_SCHEMA, config) as Config;
}

function maskValue(spec: Spec, value: unknown): unknown {
  if (spec.kind === "object" && isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => {
        const field = spec.fields[key];
        return [key, field ? maskValue(field, child) : child];
      }),
    );
  }
  if (spec.kind === "list" && Array.isArray(value)) return value.map((item) => maskValue(spec.item, item));
  const secret = secretOf(spec);
  if (secret === undefined || typeof value !== "string") return value;
  if (secret === "hash") return value === "" ? "" : "(argon2id hash, set)";
  return spec.kind === "url" ? maskUrlPath(value) : maskSecret(value);
}
