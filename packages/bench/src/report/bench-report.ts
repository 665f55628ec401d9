/** A whole batch handed over at once, or a streamed turn whose calls arrive while the model writes. */
export type TurnMode = 'batch' | 'stream';

/** One strategy on one batch, in one mode. */
export interface TurnResult {
  readonly strategy: string;
  /**
   * Batch: the makespan. Stream: the turn's latency, from the model's first tool-call token to
   * the last result. In ms, simulated on the sampled durations.
   */
  readonly turnMs: number;
  /** Stream: tool time after the model stopped writing (`turnMs` − the stream's end); batch: `turnMs`. */
  readonly afterStreamMs: number;
  /** Conflicting pairs of calls that ran at the same time (expected 0 but for `all-at-once`). */
  readonly conflictingOverlaps: number;
  /** Of those, pairs that both wrote one key: a lost update each. */
  readonly lostUpdates: number;
  /** Wave plans: their number of waves; `null` for other executions. */
  readonly waves: number | null;
  /** The plan's `proven` flag; `null` when the strategy does not say. */
  readonly proven: boolean | null;
  /**
   * Rules broken: by a wave plan (`verifyPlan`, rules 1–4), or by the schedule of any other
   * execution (`verifySchedule`: rules 1–5, its cap, arrivals).
   */
  readonly violations: number;
}

/** Every strategy's figures on one batch. */
export interface BatchFigures {
  readonly seed: number;
  readonly size: number;
  /** The planner package's `lowerBound` on the sampled durations, ms. */
  readonly lowerBoundMs: number;
  /** Streamed: when the model stopped writing the calls (token model), ms. */
  readonly streamEndMs: number;
  /** Streamed: no strategy keeping the rules finishes the turn sooner (`lowerBound` with `arrivalMs`), ms. */
  readonly streamLowerBoundMs: number;
  /** Seed-model batches: the fewest waves any valid plan can have; `null` otherwise. */
  readonly minimalWaves: number | null;
  readonly batch: readonly TurnResult[];
  readonly stream: readonly TurnResult[];
}

/** A figure across seeds: its median and its range. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** One value per seed, in seed order. */
  readonly perSeed: readonly number[];
}

/** One strategy on one workload (or all of them), in one mode, across seeds. */
export interface StrategySummary {
  readonly strategy: string;
  /** Per seed: summed turn time ÷ greedy's; `null` without greedy (and for greedy itself, 1). */
  readonly versusGreedy: Spread | null;
  /** Per seed: summed turn time ÷ summed lower bound (1 = as good as conceivable). */
  readonly versusBound: Spread;
  /** Per seed: mean turn time per batch, ms. */
  readonly turnMs: Spread;
  /** Per seed: mean tool time after the stream's end per batch, ms (batch mode: = `turnMs`). */
  readonly afterStreamMs: Spread;
  /** Conflicting overlaps, summed over batches and seeds. */
  readonly conflictingOverlaps: number;
  /** Lost updates, summed over batches and seeds. */
  readonly lostUpdates: number;
  /** Plans or schedules breaking the rules (see {@link TurnResult.violations}), over batches and seeds. */
  readonly invalidPlans: number;
  /** Seed-model batches with more waves than the minimum; `null` for other workloads or executions. */
  readonly aboveMinimalWaves: number | null;
  /** Share of plans proven optimal; `null` when the strategy never says. */
  readonly proven: number | null;
}

/** How far the health record's estimates were from the sampled durations. */
export interface EstimateAccuracy {
  /** Calls estimated (over batches and seeds). */
  readonly calls: number;
  /** Median of |estimate − duration| ÷ duration. */
  readonly medianError: number;
  /** 90th percentile of the same. */
  readonly p90Error: number;
  /** Calls of a tool the record had never seen (no estimate: the planner's default). */
  readonly unseen: number;
}

/** One workload's figures, across seeds. */
export interface WorkloadFigures {
  readonly name: string;
  readonly description: string;
  readonly kind: 'tools' | 'seed-model';
  /** Batches per seed. */
  readonly batches: number;
  /** Calls per seed. */
  readonly calls: number;
  readonly estimates: EstimateAccuracy;
  readonly batch: readonly StrategySummary[];
  readonly stream: readonly StrategySummary[];
  readonly perBatch: readonly BatchFigures[];
}

/** Every workload together. */
export interface OverallFigures {
  readonly batches: number;
  readonly calls: number;
  readonly estimates: EstimateAccuracy;
  readonly batch: readonly StrategySummary[];
  readonly stream: readonly StrategySummary[];
}

/** A strategy as the report lists it. */
export interface StrategyInfo {
  readonly name: string;
  readonly description: string;
  readonly clairvoyant: boolean;
}

/** Mean time a strategy took to decide a batch (planning), first seed, batch mode. */
export interface MeanPlanningTime {
  readonly strategy: string;
  readonly meanMs: number;
}

/** Planning time of one planner at one batch size. */
export interface ScalingPoint {
  readonly planner: string;
  readonly size: number;
  /** Planning time, ms; `null` when skipped. */
  readonly planMs: number | null;
  readonly waves: number | null;
  /** Why the size was skipped (the planner was over the time cap at a smaller size). */
  readonly skipped?: string;
}

/** Real executions of one workload's batches one way, summed over its batches. */
export interface RealFigures {
  readonly workload: string;
  readonly batches: number;
  readonly calls: number;
  /** Measured wall-clock (a streamed turn's: from the first tool-call token to the last result), ms. */
  readonly wallMs: number;
  /** The simulated turn × latency scale, ms: what the wall-clock would be with no overhead. */
  readonly simulatedMs: number;
  /**
   * How much the repeats of a run disagree: the mean over batches of (slowest − fastest) ÷
   * median. Ratios smaller than this are noise (0 with a single repeat).
   */
  readonly spread: number;
  /** Results with `isError: true` (expected 0: the batches are valid on a fresh workspace). */
  readonly errors: number;
}

/** Real dispatches of one workload's batches with one planner's plans. */
export interface RealRunFigures extends RealFigures {
  readonly planner: string;
  /** The first few error results, `tool: content`, to tell what went wrong. */
  readonly errorSamples: readonly string[];
}

/** Real streamed turns of one workload run one way: `eager` (`dispatchStream`), or wait-then-waves with a planner. */
export interface RealStreamFigures extends RealFigures {
  readonly strategy: string;
}

/** How the run was made. */
export interface BenchMeta {
  readonly seeds: readonly number[];
  readonly quick: boolean;
  readonly maxConcurrency: number;
  readonly sizes: readonly number[];
  readonly repeats: number;
  /** Turns whose durations warm the health record up before the measured ones. */
  readonly warmupTurns: number;
  /** Streamed turns: tokens per second of the token model. */
  readonly tokensPerSecond: number;
  /** The strategies, in report order (planners first). */
  readonly strategies: readonly StrategyInfo[];
  /** The planners, for scaling and real runs. */
  readonly planners: readonly string[];
  /** The strategy others are compared with (`greedy` when bound). */
  readonly reference: string | null;
  /** Real runs: injected latency = sampled duration × this (0: no real runs). */
  readonly latencyScale: number;
  /** Real runs: the batch sizes run. */
  readonly realSizes: readonly number[];
  /** Real runs: dispatches per batch and planner (the median counts). */
  readonly realRepeats: number;
  /** Real streamed turns: latency and arrival times = simulated ones × this (0: none run). */
  readonly streamLatencyScale: number;
  /** The command that reproduces the run. */
  readonly command: string;
  readonly generatedAt: string;
  readonly environment: string;
}

/** Everything a run measured: `report.json`, and the input of the markdown and HTML reports. */
export interface BenchReport {
  readonly meta: BenchMeta;
  readonly workloads: readonly WorkloadFigures[];
  readonly overall: OverallFigures;
  readonly planning: readonly MeanPlanningTime[];
  readonly scaling: readonly ScalingPoint[];
  readonly realRuns: readonly RealRunFigures[];
  readonly realStreams: readonly RealStreamFigures[];
}
