import type { Secret, Spec } from "./spec.js";

// Small builders so each key is one line: its kind, default, limits and description.
// A key without a default (an entry's own keys) goes through `opt`.

type Limits<K extends Spec["kind"]> = Omit<Extract<Spec, { kind: K }>, "kind" | "default" | "doc" | "optional">;

export const bool = (def: boolean | undefined, doc: string) => ({ kind: "boolean", default: def, doc }) as const;
export const int = (def: number | undefined, doc: string, limits: Limits<"integer"> = {}) =>
  ({ kind: "integer", default: def, doc, ...limits }) as const;
export const num = (def: number | undefined, doc: string, min?: number) => ({ kind: "number", default: def, doc, min }) as const;
export const str = (def: string | undefined, doc: string, limits: Limits<"string"> = {}) =>
  ({ kind: "string", default: def, doc, ...limits }) as const;
/** A secret string, empty by default. */
export const secret = (doc: string, mark: Secret = true) => ({ kind: "string", default: "", doc, secret: mark }) as const;
export const url = (def: string | undefined, doc: string, mark?: Secret) => ({ kind: "url", default: def, doc, secret: mark }) as const;
export const host = (def: string, doc: string) => ({ kind: "host", default: def, doc }) as const;
export const strs = (def: readonly string[] | undefined, doc: string, absolute?: boolean) =>
  ({ kind: "strings", default: def, doc, absolute }) as const;
export const byKey = (def: Readonly<Record<string, readonly string[]>> | undefined, doc: string, limits: Limits<"stringsByKey"> = {}) =>
  ({ kind: "stringsByKey", default: def, doc, ...limits }) as const;
export const command = (def: string, doc: string) => ({ kind: "command", default: def, doc }) as const;

export function oneOf<const V extends readonly string[]>(values: V, def: V[number] | undefined, doc: string) {
  return { kind: "enum", values, default: def, doc } as const;
}

/** An object whose default is made of its fields' defaults. */
export function obj<const F extends Readonly<Record<string, Spec>>>(fields: F, doc: string, required?: readonly (keyof F & string)[]) {
  return { kind: "object", fields, doc, required } as const;
}

/** A list, empty by default. */
export function list<const I extends Spec>(item: I, doc: string) {
  return { kind: "list", item, default: [], doc } as const;
}

/** An object keyed by names, empty by default. */
export function map<const V extends Spec>(value: V, doc: string) {
  return { kind: "map", value, default: {}, doc } as const;
}

/** A key that may be absent: it has no default of its own (the feature reading it applies one). */
export function opt<const S extends Spec>(spec: S): S & { readonly optional: true } {
  return { ...spec, optional: true };
}
