import type { TargetType } from "../domain.js";
import { CONFIG_SCHEMA } from "./schema.js";
import type { InferFields, Spec } from "./spec.js";
import type { TargetConfig } from "./types.js";

/** A TYPE's own entry fields, each declared like every config key (kind, limits, description; none has a default). */
export type OwnFields = Readonly<Record<string, Spec>>;

/** An entry of a TYPE whose own fields are `F`: the common fields and, optional, its own. */
export type EntryOf<F> = TargetConfig & Partial<InferFields<F>>;

/**
 * What one target folder declares about its TARGETS entries
 * (`targets/<type>/config.ts`): the fields only its TYPE takes and the rules
 * of an entry of its TYPE. `targets/registry.ts` collects them, and the
 * loader is given them (config/ sits below targets/ and never imports it).
 */
export interface TargetKindConfig<E = TargetConfig> {
  /** Entry fields only this TYPE takes, beside the common ones (config/schema-parts.ts TARGET_ENTRY). */
  fields?: OwnFields;
  /** Why another TYPE refuses these fields, after `only TYPE "plex" takes it`. */
  onlyNote?: string;
  /** The problems of one entry of this TYPE; `at` is its dotted path (`TARGETS[2]`). */
  check(entry: E, at: string): string[];
}

/** A target folder's declaration, its `check` given the entry typed with its own fields. */
export function defineTargetKind<const F extends OwnFields>(kind: TargetKindConfig<EntryOf<F>> & { fields: F }): TargetKindConfig {
  // The schema checked the entry's own fields before any rule runs.
  return kind as TargetKindConfig;
}

/** Every TYPE's declaration, in the registry's order. */
export type TargetKinds = Readonly<Record<TargetType, TargetKindConfig>>;

/** The whole schema, with each TYPE's own entry fields in TARGETS' entries. */
export function configSchema(kinds: TargetKinds): Spec {
  const targets = CONFIG_SCHEMA.fields.TARGETS;
  const own = Object.values(kinds).map((kind) => kind.fields ?? {});
  const fields = Object.assign({}, targets.item.fields, ...own) as Record<string, Spec>;
  return { ...CONFIG_SCHEMA, fields: { ...CONFIG_SCHEMA.fields, TARGETS: { ...targets, item: { ...targets.item, fields } } } };
}
