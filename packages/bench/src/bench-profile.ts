/** How much a run measures. */
export interface BenchProfile {
  /** Batch sizes of the workloads (each workload makes `repeats` batches per size). */
  readonly sizes: readonly number[];
  readonly repeats: number;
  /** Seeds, from the run's first seed up: every figure is given with its spread across them. */
  readonly seeds: number;
  /** Turns of each workload whose durations warm the health record up before the measured ones. */
  readonly warmupTurns: number;
  /** Batch sizes of the planning-time scaling (empty: skip it). */
  readonly scalingSizes: readonly number[];
  /** A planner slower than this on one scaling batch is skipped at larger sizes, ms. */
  readonly scalingCapMs: number;
  /** Fast plannings are repeated until this long, for precise times, ms. */
  readonly minTimingMs: number;
  /** Time the real runs should take, about, ms (0: skip them); sets the latency scale. */
  readonly realBudgetMs: number;
  /** Batch sizes that are run for real (the other batches are only simulated). */
  readonly realSizes: readonly number[];
  /** Dispatches per real batch and planner; the median counts. */
  readonly realRepeats: number;
  /** Time the real streamed turns should take, about, ms (0: skip them); sets their scale. */
  readonly streamBudgetMs: number;
}

/** `pnpm bench --quick`: 3 seeds, a batch per size, scaling to 1000 calls, ~18 s real runs. */
export const QUICK_PROFILE: BenchProfile = {
  sizes: [2, 4, 8, 16, 32, 64],
  repeats: 1,
  seeds: 3,
  warmupTurns: 3,
  scalingSizes: [10, 100, 1000],
  scalingCapMs: 1000,
  minTimingMs: 0.5,
  realBudgetMs: 10_000,
  realSizes: [32],
  realRepeats: 3,
  streamBudgetMs: 8_000,
};

/** `pnpm bench`: 5 seeds, 3 batches per size, scaling to 100 000 calls, ~3.5 min real runs. */
export const FULL_PROFILE: BenchProfile = {
  ...QUICK_PROFILE,
  sizes: [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64],
  repeats: 3,
  seeds: 5,
  scalingSizes: [10, 30, 100, 300, 1000, 3000, 10_000, 30_000, 100_000],
  scalingCapMs: 5000,
  minTimingMs: 2,
  realBudgetMs: 150_000,
  realSizes: [8, 16, 32, 64],
  streamBudgetMs: 60_000,
};
