/**
 * The name among `names` that `given` was most likely meant to be, for a "did you mean"
 * hint: the nearest by edit distance when it is close for its length (`maxStep` → `maxSteps`,
 * `tracerProvidr` → `tracerProvider`), or a name that `given` starts with or that starts with
 * `given` (`rootDir` → `root`), or the same name in another case. `undefined` when none is.
 *
 * @example
 * ```ts
 * closestName('cachedRead', ['root', 'cachedReads']); // 'cachedReads'
 * closestName('colour', ['root']); // undefined
 * ```
 * @see checkOptions, which adds the hint to its "Unknown option" message.
 */
export function closestName(given: string, names: readonly string[]): string | undefined {
  const lower = given.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const candidate = name.toLowerCase();
    const distance = editDistance(lower, candidate);
    // A third of the longer name may differ; one or two letters always may.
    const close = distance <= Math.max(2, Math.floor(Math.max(given.length, name.length) / 3));
    const prefix =
      Math.min(lower.length, candidate.length) >= 3 &&
      (lower.startsWith(candidate) || candidate.startsWith(lower));
    if (!close && !prefix) continue;
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
