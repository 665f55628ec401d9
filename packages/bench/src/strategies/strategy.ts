import type { Plan, PlanNode } from '@toolwaves/planner';

/**
 * What a strategy is told about one turn — what a dispatcher would know when it runs it, and
 * never the durations the simulation will use (except for a strategy marked `clairvoyant`).
 */
export interface TurnView {
  /**
   * The calls' declarations, `estimateMs` set to the health record's estimate of each call's
   * tool (missing for a tool never seen yet); for a clairvoyant strategy, the sampled duration.
   */
  readonly nodes: readonly PlanNode[];
  /** The cap of capped strategies (the bench's `maxConcurrency`). */
  readonly maxConcurrency: number;
  /**
   * Streamed turns only: when each call has been written out, in ms from the model's first
   * tool-call token (non-decreasing; the last one is when the model stopped writing).
   */
  readonly arrivalMs?: readonly number[];
}

/** Waves one after another from `startMs`; inside a wave, calls start in order as slots free up. */
export interface WavesExecution {
  readonly kind: 'waves';
  readonly plan: Plan;
  /** Slots inside a wave. */
  readonly maxConcurrency: number;
  /** When the first wave may start (a streamed turn that waits for the whole batch: the stream's end). */
  readonly startMs: number;
}

/**
 * Calls start as soon as they may: call `i` once `readyMs[i]` has passed and every call in
 * `dependsOn[i]` has ended, and a slot is free; among ready calls the lowest index first.
 */
export interface DependenciesExecution {
  readonly kind: 'dependencies';
  /** Per call, the earlier calls it waits for. */
  readonly dependsOn: readonly (readonly number[])[];
  /** Per call, the earliest start (its arrival, or the stream's end). */
  readonly readyMs: readonly number[];
  /** Calls running at once (`Infinity`: no cap). */
  readonly maxConcurrency: number;
}

/**
 * The executor's eager mode, simulated by the planner's `simulateEager` on the sampled
 * durations: each call starts once it has arrived, the earlier calls it depends on
 * (`dependencies`: rules 4 and 5) have ended and a slot is free, the earlier call first.
 */
export interface EagerExecution {
  readonly kind: 'eager';
  /** The calls' declarations (their `estimateMs` are ignored: the simulator sets the durations). */
  readonly nodes: readonly PlanNode[];
  /** When each call arrives (streamed turns); all at 0 when missing. */
  readonly arrivalMs?: readonly number[];
  readonly maxConcurrency: number;
}

/**
 * How a strategy runs a turn, as rules the simulator applies to the sampled durations: the
 * strategy decides the rules, the simulator (which alone holds the durations) the times.
 */
export type Execution = WavesExecution | DependenciesExecution | EagerExecution;

/**
 * A way of running the tool calls of a turn: the bench's planners (through
 * {@link plannerStrategy}), the eager mode, and peers' strategies. Bind your own under
 * `STRATEGY` in the bench's container to compare it.
 *
 * @example
 * ```ts
 * const oneByOne: Strategy = {
 *   name: 'one-by-one',
 *   description: 'Every call after the previous one ended.',
 *   execute: ({ nodes, arrivalMs }) => ({
 *     kind: 'dependencies',
 *     dependsOn: nodes.map((_, i) => (i === 0 ? [] : [i - 1])),
 *     readyMs: nodes.map((_, i) => arrivalMs?.[i] ?? 0),
 *     maxConcurrency: 1,
 *   }),
 * };
 * ```
 */
export interface Strategy {
  /** Unique among the strategies compared; the row of the report. */
  readonly name: string;
  /** One sentence for the report. */
  readonly description: string;
  /**
   * Sees the sampled durations as `estimateMs`: shown only as labelled headroom, never as a
   * strategy anyone can run.
   */
  readonly clairvoyant?: boolean;
  /** Decides how the turn runs (pure: the same view gives the same execution). */
  execute(turn: TurnView): Execution;
}
