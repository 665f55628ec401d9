import type { BenchProfile } from '../bench-profile.js';
import type { RateLimitedFigures } from '../limits/compare-remote-strategies.js';
import type { Strategy } from '../strategies/strategy.js';

/** A whole batch at once, or a streamed turn whose calls arrive while the model writes. */
export type TurnMode = 'batch' | 'stream';

/** One strategy on one batch, in one mode (times in ms, simulated on the sampled durations). */
export interface TurnResult {
  readonly strategy: string;
  /** Batch: the makespan; stream: from the first tool-call token to the last result. */
  readonly turnMs: number;
  /** Tool time after the model stopped writing (batch: `turnMs`). */
  readonly afterStreamMs: number;
  /** Conflicting pairs of calls that ran at the same time. */
  readonly conflictingOverlaps: number;
  /** Of those, pairs that both wrote one key. */
  readonly lostUpdates: number;
  /** Waves of a wave plan; `null` for other executions. */
  readonly waves: number | null;
  /** The plan's `proven` flag; `null` when the strategy does not say. */
  readonly proven: boolean | null;
  /** Rules broken (`verifyPlan` for a wave plan, else `verifySchedule`). */
  readonly violations: number;
}

/** Every strategy's figures on one batch. */
export interface BatchFigures {
  readonly seed: number;
  readonly size: number;
  /** The planner package's `lowerBound` on the sampled durations, ms. */
  readonly lowerBoundMs: number;
  /** When the model stopped writing the calls (token model), ms. */
  readonly streamEndMs: number;
  /** `lowerBound` with the arrivals, ms. */
  readonly streamLowerBoundMs: number;
  readonly batch: readonly TurnResult[];
  readonly stream: readonly TurnResult[];
}

/** A figure across seeds: its median, its range, and one value per seed in seed order. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly perSeed: readonly number[];
}

/** One strategy on one workload (or all of them), in one mode, across seeds. */
export interface StrategySummary {
  readonly strategy: string;
  /** Summed turn time ÷ greedy's; `null` without greedy. */
  readonly versusGreedy: Spread | null;
  /** Summed turn time ÷ summed lower bound (1 = as good as conceivable). */
  readonly versusBound: Spread;
  /** Mean turn time per batch, ms. */
  readonly turnMs: Spread;
  /** Mean tool time after the stream's end per batch, ms. */
  readonly afterStreamMs: Spread;
  /** Summed over batches and seeds. */
  readonly conflictingOverlaps: number;
  readonly lostUpdates: number;
  /** Turns breaking the rules ({@link TurnResult.violations}). */
  readonly invalidPlans: number;
  /** Share of plans proven optimal; `null` when the strategy never says. */
  readonly proven: number | null;
}

/** How far the health record's estimates were from the sampled durations. */
export interface EstimateAccuracy {
  readonly calls: number;
  readonly medianError: number;
  readonly p90Error: number;
  /** Calls of a tool the record had never seen (the planner's default estimate). */
  readonly unseen: number;
}

/** Every workload together, across seeds (`batches` and `calls` per seed). */
export interface OverallFigures {
  readonly batches: number;
  readonly calls: number;
  readonly estimates: EstimateAccuracy;
  readonly batch: readonly StrategySummary[];
  readonly stream: readonly StrategySummary[];
}

/** One workload's figures, across seeds, and every batch's. */
export interface WorkloadFigures extends OverallFigures {
  readonly name: string;
  readonly description: string;
  readonly perBatch: readonly BatchFigures[];
}

/** A strategy as the report lists it. */
export type StrategyInfo = Pick<Strategy, 'name' | 'description'> & {
  readonly clairvoyant: boolean;
};

/** Real streamed turns of one workload one way (`eager` or wait-then-waves), summed (ms). */
export interface RealStreamFigures {
  readonly workload: string;
  readonly strategy: string;
  readonly batches: number;
  readonly calls: number;
  /** Measured wall-clock, from the first tool-call token to the last result. */
  readonly wallMs: number;
  /** The simulated turn × latency scale: the wall-clock with no overhead. */
  readonly simulatedMs: number;
  /** Mean over batches of (slowest − fastest) ÷ median of the repeats: the noise. */
  readonly spread: number;
  /** Results with `isError: true` (expected 0). */
  readonly errors: number;
}

/** How the run was made. */
export interface BenchMeta {
  readonly seeds: readonly number[];
  readonly quick: boolean;
  /** What was measured (sizes, repeats, warm-up turns, real runs). */
  readonly profile: BenchProfile;
  readonly maxConcurrency: number;
  readonly tokensPerSecond: number;
  /** In report order. */
  readonly strategies: readonly StrategyInfo[];
  /** The strategy others are compared with (`greedy` when bound). */
  readonly reference: string | null;
  /** Real streamed turns: latencies and arrivals × this (0: none run). */
  readonly streamLatencyScale: number;
  /** The command that reproduces the run. */
  readonly command: string;
  readonly generatedAt: string;
  readonly environment: string;
}

/** One `whileStreaming` value on the retried-streams workload, across seeds. */
export interface WhileStreamingFigures {
  readonly whileStreaming: 'all' | 'read-only';
  /** Writes and commands started from model attempts that were then thrown away, per seed. */
  readonly discardedSideEffects: Spread;
  /** Mean turn time, from the first attempt's first token to the last result, ms. */
  readonly turnMs: Spread;
  /** Mean tool time after the completed attempt's message ended, ms. */
  readonly afterStreamMs: Spread;
}

/**
 * Streamed turns whose model stream fails mid-message in a share of attempts and is asked again
 * (the real Dispatcher on a virtual clock), per `whileStreaming` value.
 */
export interface RetriedStreamsFigures {
  /** Turns per seed. */
  readonly turns: number;
  /** Share of attempts whose stream fails (a turn fails at most twice). */
  readonly failShare: number;
  /** Model attempts per seed, and of those the ones thrown away. */
  readonly attempts: Spread;
  readonly failedAttempts: Spread;
  readonly strategies: readonly WhileStreamingFigures[];
  /** Summed turn time of `'read-only'` ÷ that of `'all'`, per seed. */
  readonly readOnlyVersusAll: Spread;
}

/** Everything a run measured: `report.json`, and the input of the markdown and HTML reports. */
export interface BenchReport {
  readonly meta: BenchMeta;
  readonly workloads: readonly WorkloadFigures[];
  readonly overall: OverallFigures;
  readonly realStreams: readonly RealStreamFigures[];
  /** The retried-streams workload; `null` when the profile runs no such turns. */
  readonly retriedStreams: RetriedStreamsFigures | null;
  /** The rate-limited servers workload: each strategy with and without named limits. */
  readonly rateLimited?: RateLimitedFigures;
}
