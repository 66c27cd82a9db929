import type { TargetType } from "../domain.js";
import { CONFIG_SCHEMA, type Spec } from "./schema.js";
import type { TargetConfig } from "./types.js";

/**
 * What one target folder declares about its TARGETS entries
 * (`targets/<type>/config.ts`): the fields only its TYPE takes and the rules
 * of an entry of its TYPE. `targets/registry.ts` collects them, and the
 * loader is given them (config/ sits below targets/ and never imports it).
 */
export interface TargetKindConfig {
  /** Entry fields only this TYPE takes, beside the common ones (config/schema.ts TARGET_ENTRY). */
  fields?: Readonly<Record<string, Spec>>;
  /** Why another TYPE refuses these fields, after `only TYPE "plex" takes it`. */
  onlyNote?: string;
  /** The problems of one entry of this TYPE; `at` is its dotted path (`TARGETS[2]`). */
  check(entry: TargetConfig, at: string): string[];
}

/** Every TYPE's declaration, in the registry's order. */
export type TargetKinds = Readonly<Record<TargetType, TargetKindConfig>>;

/** The whole schema, with each TYPE's own entry fields in TARGETS' entries. */
export function configSchema(kinds: TargetKinds): Spec {
  const entry = CONFIG_SCHEMA.fields.TARGETS.item;
  const own = Object.values(kinds).map((kind) => kind.fields ?? {});
  const fields = Object.assign({}, entry.fields, ...own) as Record<string, Spec>;
  return { ...CONFIG_SCHEMA, fields: { ...CONFIG_SCHEMA.fields, TARGETS: { kind: "list", item: { ...entry, fields } } } };
}
