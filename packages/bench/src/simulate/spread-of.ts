import type { Spread } from '../report/bench-report.js';

/**
 * The median and range of one figure across seeds (pure).
 *
 * @example spreadOf([1.02, 0.98, 1.0]); // { median: 1, min: 0.98, max: 1.02, perSeed: [1.02, 0.98, 1] }
 */
export function spreadOf(perSeed: readonly number[]): Spread {
  const sorted = [...perSeed].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length === 0
      ? Number.NaN
      : sorted.length % 2 === 1
        ? sorted[middle]!
        : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return {
    median,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    perSeed: [...perSeed],
  };
}
