// "Did you mean …?": the nearest names to a mistyped command, flag, value or help topic (the
// reporter, report-error.ts, phrases them). A name the typed word begins wins (`svc rep` →
// reports); otherwise the closest by edit distance, as long as it shares more than 40% of its
// letters with the word.

const MIN_SIMILARITY = 0.4;
const MAX_SUGGESTIONS = 3;

export function nearest(word: string, candidates: readonly string[]): string[] {
  const typed = bare(word);
  const unique = [...new Set(candidates)].filter((candidate) => bare(candidate).length > 1);
  if (typed.length > 0) {
    const extended = unique.filter((candidate) => bare(candidate).startsWith(typed));
    if (extended.length > 0) return extended.slice(0, MAX_SUGGESTIONS);
  }
  let best = Infinity;
  let closest: string[] = [];
  for (const candidate of unique) {
    const name = bare(candidate);
    const distance = editDistance(typed, name);
    const length = Math.max(typed.length, name.length);
    if ((length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < best) [best, closest] = [distance, [candidate]];
    else if (distance === best) closest.push(candidate);
  }
  // Every name equally near tells nothing (`tcsh`: bash, zsh and fish alike).
  if (closest.length > 1 && closest.length === unique.length) return [];
  return closest.slice(0, MAX_SUGGESTIONS);
}

/** The part that is compared: no leading dashes, no `=value`, any case. */
function bare(name: string): string {
  return name.replace(/^-+/, '').replace(/=.*$/, '').toLowerCase();
}

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
 */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
