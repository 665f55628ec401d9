import type {
  BatchFigures,
  EstimateAccuracy,
  Spread,
  StrategySummary,
  TurnMode,
  TurnResult,
} from '../report/bench-report.js';

/** The median and range of one figure across seeds. */
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

/**
 * Median and p90 of |estimate − duration| ÷ duration (a missing estimate counts as `defaultMs`).
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

/** Each strategy's spreads across seeds (ratios of sums, mean times) and totals. */
export function summarizeStrategies(options: {
  /** The batches of every seed. */
  readonly batches: readonly BatchFigures[];
  readonly mode: TurnMode;
  readonly strategies: readonly string[];
  /** One value per seed in every spread, in this order. */
  readonly seeds: readonly number[];
  readonly reference?: string;
}): StrategySummary[] {
  const { mode, reference, seeds } = options;
  const bySeed = seeds.map((seed) => options.batches.filter((batch) => batch.seed === seed));
  const resultOf = (batch: BatchFigures, strategy: string): TurnResult => {
    const found = batch[mode].find((result) => result.strategy === strategy);
    if (found === undefined) throw new RangeError(`No result of strategy \`${strategy}\``);
    return found;
  };
  const bound = (batch: BatchFigures) =>
    mode === 'batch' ? batch.lowerBoundMs : batch.streamLowerBoundMs;
  const sum = (batches: readonly BatchFigures[], pick: (batch: BatchFigures) => number) =>
    batches.reduce((total, batch) => total + pick(batch), 0);
  return options.strategies.map((strategy): StrategySummary => {
    const of =
      (field: 'turnMs' | 'afterStreamMs', name = strategy) =>
      (batch: BatchFigures) =>
        resultOf(batch, name)[field];
    const all = options.batches.map((batch) => resultOf(batch, strategy));
    const proven = all.filter((result) => result.proven !== null);
    const perSeed = (pick: (batches: readonly BatchFigures[]) => number) =>
      spreadOf(bySeed.map(pick));
    return {
      strategy,
      versusGreedy:
        reference === undefined
          ? null
          : perSeed((batches) =>
              ratio(sum(batches, of('turnMs')), sum(batches, of('turnMs', reference))),
            ),
      versusBound: perSeed((batches) => ratio(sum(batches, of('turnMs')), sum(batches, bound))),
      turnMs: perSeed((batches) => mean(sum(batches, of('turnMs')), batches.length)),
      afterStreamMs: perSeed((batches) => mean(sum(batches, of('afterStreamMs')), batches.length)),
      conflictingOverlaps: all.reduce((sum, result) => sum + result.conflictingOverlaps, 0),
      lostUpdates: all.reduce((sum, result) => sum + result.lostUpdates, 0),
      invalidPlans: all.filter((result) => result.violations > 0).length,
      proven:
        proven.length === 0
          ? null
          : proven.filter((result) => result.proven === true).length / all.length,
    };
  });
}

function ratio(value: number, base: number): number {
  return base === 0 ? (value === 0 ? 1 : Number.POSITIVE_INFINITY) : value / base;
}

function mean(total: number, count: number): number {
  return count === 0 ? 0 : total / count;
}
