import type { EnvKeyShape, EnvKind } from "./env-overlay.js";
import { holdsSecret, type Spec } from "./schema.js";

const INDEX = /^\d+$/;

/** The overlay's view of a schema (config/schema.ts's Spec, with the target types' fields: configSchema). */
export function envShapeOf(root: Spec): EnvKeyShape {
  return {
    kindAt: (path) => {
      const spec = specAt(root, path);
      return spec && kindOf(spec);
    },
    isSecret: (path) => {
      const spec = specAt(root, path);
      return spec !== undefined && holdsSecret(spec);
    },
    keysAt: (path) => {
      const spec = specAt(root, path);
      return spec?.kind === "object" ? Object.keys(spec.fields) : [];
    },
  };
}

function specAt(root: Spec, path: readonly string[]): Spec | undefined {
  let spec: Spec | undefined = root;
  for (const segment of path) {
    if (spec?.kind === "object") spec = Object.hasOwn(spec.fields, segment) ? spec.fields[segment] : undefined;
    else if (spec?.kind === "list" && INDEX.test(segment)) spec = spec.item;
    else if (spec?.kind === "strings" && INDEX.test(segment)) spec = { kind: "string" };
    else return undefined;
  }
  return spec;
}

/** Free-form maps (SOURCES, the path mappings), lists and objects are set whole, as JSON. */
function kindOf(spec: Spec): EnvKind {
  switch (spec.kind) {
    case "boolean":
    case "integer":
    case "number":
    case "command":
      return spec.kind;
    case "string":
    case "url":
    case "host":
    case "enum":
      return "string";
    default:
      return "json";
  }
}
