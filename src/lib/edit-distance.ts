/**
 * The fewest one-character insertions, deletions, substitutions or swaps of
 * two neighbours turning `a` into `b` (optimal string alignment distance).
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate nearest to `word` (case and underscores aside), when it is
 * near enough to be a typo: one edit for short words, up to three for long
 * ones. Undefined when none is.
 */
export function nearestName(word: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toUpperCase().replace(/_/g, "");
  const target = norm(word);
  const allowed = Math.max(1, Math.min(3, Math.floor(target.length / 5)));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(target, norm(name));
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
