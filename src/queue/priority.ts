/**
 * SERVER_SCAN_PRIORITIES as plex_autoscan reads it: `{"0": ["/Movies/"], "1":
 * ["/TV/"]}`. A folder takes the lowest number whose patterns hold a
 * case-insensitive substring of it (JavaScript walks integer keys in numeric
 * order anyway, so "first entry" and "lowest number" agree); unmatched folders
 * get 0. A lower number is delivered first, so unmatched folders rank with the
 * best. The folder is tested with a trailing separator so that "/Movies/"
 * matches the folder "/Movies" itself, not only what lies inside it.
 */
export type PriorityRules = Record<string, string[]>;

export type PriorityOf = (folder: string) => number;

/** Builds the priority function once, so each request costs a few substring tests. */
export function createPriorityOf(rules: PriorityRules, separator: (folder: string) => string): PriorityOf {
  const entries: Array<{ priority: number; patterns: string[] }> = [];
  for (const [key, patterns] of Object.entries(rules)) {
    const priority = Number(key);
    if (!Number.isInteger(priority)) throw new TypeError(`SERVER_SCAN_PRIORITIES: key "${key}" is not an integer`);
    entries.push({ priority, patterns: patterns.map((p) => p.toLowerCase()) });
  }
  entries.sort((a, b) => a.priority - b.priority);
  return (folder) => {
    const sep = separator(folder);
    const subject = (folder.endsWith(sep) ? folder : folder + sep).toLowerCase();
    for (const entry of entries) {
      if (entry.patterns.some((p) => p !== "" && subject.includes(p))) return entry.priority;
    }
    return 0;
  };
}
