import type { EnvKeyShape } from "./env-overlay.js";
import { type Spec, specAt } from "./spec.js";

/** The overlay's view of a schema (config/schema.ts's, with the target types' fields: configSchema), through `specAt`. */
export function envShapeOf(root: Spec): EnvKeyShape {
  return {
    kindAt: (path) => specAt(root, path)?.kind,
    isSecret: (path) => specAt(root, path)?.secret ?? false,
    keysAt: (path) => {
      const spec = specAt(root, path)?.spec;
      return spec?.kind === "object" ? Object.keys(spec.fields) : [];
    },
  };
}
