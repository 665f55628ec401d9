import type {
  BatchFigures,
  StrategySummary,
  TurnMode,
  TurnResult,
} from '../report/bench-report.js';
import { spreadOf } from './spread-of.js';

/** Options of {@link summarizeStrategies}. */
export interface SummarizeStrategiesOptions {
  /** The batches of every seed. */
  readonly batches: readonly BatchFigures[];
  readonly mode: TurnMode;
  /** Strategy names, in report order. */
  readonly strategies: readonly string[];
  /** The seeds, in order: one value per seed in every spread. */
  readonly seeds: readonly number[];
  /** The strategy the others are compared with, when there is one. */
  readonly reference?: string;
  /** Seed-model batches: count plans above the minimal wave count. */
  readonly seedModel?: boolean;
}

/**
 * Sums each strategy's turn times per seed and takes, across seeds, the spread of its ratio to
 * the reference and to the lower bound (of the mode: the batch's, or the one with arrivals),
 * of its mean turn time and of its tool time after the stream; and the totals of conflicting
 * overlaps, lost updates and broken rules (pure). Ratios are of sums, so long batches weigh
 * more.
 *
 * @example summarizeStrategies({ batches, mode: 'stream', strategies: ['greedy', 'eager'], seeds: [1, 2, 3], reference: 'greedy' });
 * @see compareStrategies
 */
export function summarizeStrategies(options: SummarizeStrategiesOptions): StrategySummary[] {
  const { mode, reference, seeds } = options;
  const bySeed = seeds.map((seed) => options.batches.filter((batch) => batch.seed === seed));
  const resultOf = (batch: BatchFigures, strategy: string): TurnResult => {
    const found = batch[mode].find((result) => result.strategy === strategy);
    if (found === undefined) throw new RangeError(`No result of strategy \`${strategy}\``);
    return found;
  };
  const sumOf = (batches: readonly BatchFigures[], pick: (batch: BatchFigures) => number) =>
    batches.reduce((sum, batch) => sum + pick(batch), 0);
  const bound = (batch: BatchFigures): number =>
    mode === 'batch' ? batch.lowerBoundMs : batch.streamLowerBoundMs;
  return options.strategies.map((strategy): StrategySummary => {
    const turn = (batch: BatchFigures) => resultOf(batch, strategy).turnMs;
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
              ratio(
                sumOf(batches, turn),
                sumOf(batches, (batch) => resultOf(batch, reference).turnMs),
              ),
            ),
      versusBound: perSeed((batches) => ratio(sumOf(batches, turn), sumOf(batches, bound))),
      turnMs: perSeed((batches) => mean(sumOf(batches, turn), batches.length)),
      afterStreamMs: perSeed((batches) =>
        mean(
          sumOf(batches, (batch) => resultOf(batch, strategy).afterStreamMs),
          batches.length,
        ),
      ),
      conflictingOverlaps: all.reduce((sum, result) => sum + result.conflictingOverlaps, 0),
      lostUpdates: all.reduce((sum, result) => sum + result.lostUpdates, 0),
      invalidPlans: all.filter((result) => result.violations > 0).length,
      aboveMinimalWaves:
        options.seedModel === true && all.every((result) => result.waves !== null)
          ? options.batches.filter(
              (batch) => resultOf(batch, strategy).waves! > (batch.minimalWaves ?? 0),
            ).length
          : null,
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
