import { PathError, createPathMapper } from "../paths/mapper.js";
import { childPath } from "./validate.js";

/** A prefix listed under two keys, and anything the mapper cannot parse; `at` is the mappings' dotted path. */
export function checkPathMappings(mappings: Record<string, string[]>, at: string): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const [key, alternatives] of Object.entries(mappings)) {
    alternatives.forEach((alt, i) => {
      const altAt = `${childPath(at, key)}[${i}]`;
      const normal = alt.replace(/[\\/]+$/, "");
      const other = seen.get(normal);
      if (other !== undefined && other !== key)
        problems.push(`${altAt}: "${alt}" is also listed under ${JSON.stringify(other)}; a prefix can map to one key only`);
      seen.set(normal, key);
    });
  }
  try {
    createPathMapper(mappings, at);
  } catch (error) {
    if (error instanceof PathError) problems.push(`${at}: ${error.message}`);
    else throw error;
  }
  return problems;
}
