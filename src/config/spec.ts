/**
 * Marks a value as secret: config errors never echo it, and `config show`,
 * doctor, the logs and notifications mask it (config/secrets.ts reads the
 * marks; nothing else lists secrets). `"hash"` is shown only as set or not.
 */
export type Secret = true | "hash";

/** What every spec may carry besides its kind: its default, a one-line description, and `optional` for a key with no default (a list entry's). */
interface Declared {
  /** The value a config that leaves the key out gets (deep-copied for each config). */
  default?: unknown;
  /** One line: what the key does (docs/configuration.md says the rest). */
  doc?: string;
  /** The key may be absent from the effective config (an entry's own keys, whose defaults the feature applies). */
  optional?: true;
}

/**
 * The one declaration of a config value: its kind and limits, secret mark,
 * default and description. validate.ts checks values against it, the `Config`
 * type is inferred from it (`Infer`), and the defaults are read from it.
 */
export type Spec = Declared &
  (
    | { kind: "boolean" }
    | { kind: "string"; nonEmpty?: boolean; pattern?: RegExp; hint?: string; secret?: Secret }
    | { kind: "url"; secret?: Secret }
    | { kind: "host" }
    | { kind: "integer"; min?: number; max?: number }
    | { kind: "number"; min?: number }
    | { kind: "enum"; values: readonly string[] }
    | { kind: "strings"; absolute?: boolean }
    | { kind: "stringsByKey"; keyPattern?: RegExp; keyHint?: string; absoluteValues?: boolean }
    | { kind: "object"; fields: Readonly<Record<string, Spec>>; required?: readonly string[] }
    | { kind: "list"; item: Spec }
    /** An object whose keys are names the rules check (SOURCES), each value of one spec. */
    | { kind: "map"; value: Spec }
    /** A command: a string for `/bin/sh -c`, or an argv array (the program first). */
    | { kind: "command" }
  );

/** The TypeScript type of the values a spec accepts. */
export type Infer<S> = S extends { kind: "boolean" }
  ? boolean
  : S extends { kind: "string" | "url" | "host" }
    ? string
    : S extends { kind: "integer" | "number" }
      ? number
      : S extends { kind: "enum"; values: readonly (infer V)[] }
        ? V
        : S extends { kind: "strings" }
          ? string[]
          : S extends { kind: "stringsByKey" }
            ? Record<string, string[]>
            : S extends { kind: "object"; fields: infer F }
              ? InferFields<F>
              : S extends { kind: "list"; item: infer I }
                ? Infer<I>[]
                : S extends { kind: "map"; value: infer V }
                  ? Record<string, Infer<V>>
                  : S extends { kind: "command" }
                    ? string | string[]
                    : never;

/** An object's fields: each present, but those marked `optional`. */
export type InferFields<F> = Flat<
  { -readonly [K in keyof F as F[K] extends { optional: true } ? never : K]: Infer<F[K]> } & {
    -readonly [K in keyof F as F[K] extends { optional: true } ? K : never]?: Infer<F[K]>;
  }
>;

type Flat<T> = { [K in keyof T]: T[K] };

/** The secret mark of a leaf spec, if it has one. */
export function secretOf(spec: Spec): Secret | undefined {
  return spec.kind === "string" || spec.kind === "url" ? spec.secret : undefined;
}

/** Whether `spec` is a secret or holds one (a list of targets, the CLOUD object): a wrong value there is described by its type only. */
export function holdsSecret(spec: Spec): boolean {
  if (secretOf(spec) !== undefined) return true;
  if (spec.kind === "object") return Object.values(spec.fields).some(holdsSecret);
  if (spec.kind === "list") return holdsSecret(spec.item);
  if (spec.kind === "map") return holdsSecret(spec.value);
  return false;
}

/**
 * The default of a spec: its own `default`, or for an object each field's
 * (fields marked `optional` left out). A fresh copy each call.
 */
export function defaultOf(spec: Spec): unknown {
  let template = templates.get(spec);
  if (template === undefined) {
    template = { value: buildDefault(spec) };
    templates.set(spec, template);
  }
  return copyJson(template.value);
}

// Built once per spec: a copy of the whole default config costs ~15 µs, a walk of the schema with a JSON round trip each time ~100 µs.
const templates = new WeakMap<Spec, { value: unknown }>();

function buildDefault(spec: Spec): unknown {
  if (spec.default !== undefined || spec.kind !== "object") return spec.default;
  const entries = Object.entries(spec.fields).filter(([, field]) => !field.optional);
  return Object.fromEntries(entries.map(([key, field]) => [key, buildDefault(field)]));
}

/** A deep copy of a JSON value (defaults are JSON), so no config shares another's lists. */
function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = copyJson(child);
  return out;
}

/** How a value at a key path is written: a scalar of its kind, or JSON for a list or an object. */
/** How a key's value is read from text (an environment variable): a command is a string or a JSON argv. */
export type ValueKind = "boolean" | "integer" | "number" | "string" | "command" | "json";

/** What `specAt` tells of a key path. */
export interface KeyInfo {
  kind: ValueKind;
  /** A secret, or a list or object holding one (`TARGETS`). */
  secret: boolean;
  spec: Spec;
}

const INDEX = /^\d+$/;

/**
 * The kind and secrecy of the key at `path` (`["CLOUD", "ENABLED"]`,
 * `["TARGETS"]`, `["TARGETS", "0", "TOKEN"]`), or undefined when the schema
 * has no such key. A path goes through objects' fields and lists' indices.
 */
export function specAt(root: Spec, path: readonly string[]): KeyInfo | undefined {
  let spec: Spec | undefined = root;
  for (const key of path) {
    if (spec.kind === "object") spec = Object.hasOwn(spec.fields, key) ? spec.fields[key] : undefined;
    else if (spec.kind === "list" && INDEX.test(key)) spec = spec.item;
    else if (spec.kind === "strings" && INDEX.test(key)) spec = { kind: "string" };
    else spec = undefined;
    if (spec === undefined) return undefined;
  }
  return { kind: valueKindOf(spec), secret: holdsSecret(spec), spec };
}

function valueKindOf(spec: Spec): ValueKind {
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
