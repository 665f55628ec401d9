import type { EstimateAccuracy } from '../report/bench-report.js';

/**
 * How far estimates were from the sampled durations (pure): the median and 90th percentile of
 * |estimate − duration| ÷ duration over every call, and how many calls had no estimate (a tool
 * the health record had not seen; they count with `defaultMs`, the planner's default).
 *
 * @example estimateAccuracy({ pairs: [{ estimateMs: 40, durationMs: 50 }], defaultMs: 10 }).medianError; // 0.2
 */
export function estimateAccuracy(options: {
  readonly pairs: readonly { estimateMs: number | undefined; durationMs: number }[];
  readonly defaultMs: number;
}): EstimateAccuracy {
  const errors = options.pairs
    .map(({ estimateMs, durationMs }) =>
      durationMs <= 0 ? 0 : Math.abs((estimateMs ?? options.defaultMs) - durationMs) / durationMs,
    )
    .sort((a, b) => a - b);
  const at = (share: number): number =>
    errors.length === 0
      ? 0
      : errors[Math.min(errors.length - 1, Math.floor(share * errors.length))]!;
  return {
    calls: errors.length,
    medianError: at(0.5),
    p90Error: at(0.9),
    unseen: options.pairs.filter((pair) => pair.estimateMs === undefined).length,
  };
}
