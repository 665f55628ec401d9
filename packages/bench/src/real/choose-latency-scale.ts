const SCALES = [1, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.02, 0.01];

/**
 * The largest round latency scale (1, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.02 or 0.01) at which real
 * runs whose simulated durations add up to `simulatedMs` fit in `budgetMs`: the bench injects
 * `duration × scale`, so the run takes seconds, not minutes. Never below 0.01.
 *
 * @example chooseLatencyScale({ simulatedMs: 100_000, budgetMs: 12_000 }); // 0.1
 */
export function chooseLatencyScale(options: { simulatedMs: number; budgetMs: number }): number {
  for (const scale of SCALES) {
    if (options.simulatedMs * scale <= options.budgetMs) return scale;
  }
  return SCALES[SCALES.length - 1]!;
}
