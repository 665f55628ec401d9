/** How much a run measures. */
export interface BenchProfile {
  /** Batch sizes of the workloads (each workload makes `repeats` batches per size). */
  readonly sizes: readonly number[];
  readonly repeats: number;
  /** Seeds, from the run's first seed up: every figure is given with its spread across them. */
  readonly seeds: number;
  /** Turns of each workload whose durations warm the health record up before the measured ones. */
  readonly warmupTurns: number;
  /** Batch sizes that are also run for real, streamed (the other batches are only simulated). */
  readonly realSizes: readonly number[];
  /** Real runs per batch and way; the median counts. */
  readonly realRepeats: number;
  /** Time the real streamed turns should take, about, ms (0: skip them); sets their scale. */
  readonly streamBudgetMs: number;
  /** Turns per seed of the retried-streams workload (0: skip it). */
  readonly retriedTurns: number;
}

/** `pnpm bench --quick`: 3 seeds, a batch per size, ~8 s of real streamed turns. */
export const QUICK_PROFILE: BenchProfile = {
  sizes: [2, 4, 8, 16, 32, 64],
  repeats: 1,
  seeds: 3,
  warmupTurns: 3,
  realSizes: [32],
  realRepeats: 3,
  streamBudgetMs: 8_000,
  retriedTurns: 40,
};

/** `pnpm bench`: 5 seeds, 3 batches per size, ~1 min of real streamed turns. */
export const FULL_PROFILE: BenchProfile = {
  ...QUICK_PROFILE,
  sizes: [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64],
  repeats: 3,
  seeds: 5,
  realSizes: [8, 16, 32, 64],
  streamBudgetMs: 60_000,
  retriedTurns: 150,
};
