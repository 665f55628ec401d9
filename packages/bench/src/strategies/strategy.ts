import type { Plan, PlanNode, Planner } from '@toolwaves/planner';

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

/** A wave plan: waves one after another from `startMs` (the planner package's `makespan`). */
export interface WavesExecution {
  readonly kind: 'waves';
  readonly plan: Plan;
  /** Slots inside a wave. */
  readonly maxConcurrency: number;
  /** When the first wave may start (a streamed turn that waits for the whole batch: the stream's end). */
  readonly startMs: number;
}

/**
 * The planner package's eager ready queue (`simulateEager`) on the declarations the strategy
 * acts on: each call starts once it has arrived, the earlier calls it depends on (rules 4 and
 * 5 on `nodes`) have ended and a slot is free, the earlier call first. A peer describes its
 * own rule as declarations: Codex's global lock is a read or a write of one key, Claude Code's
 * partition is "read-only calls safe, the others not", all-at-once is "everything safe".
 */
export interface EagerExecution {
  readonly kind: 'eager';
  /** The declarations the strategy acts on (their `estimateMs` are replaced by the durations). */
  readonly nodes: readonly PlanNode[];
  /** When each call may start at the earliest; all at 0 when missing. */
  readonly arrivalMs?: readonly number[];
  readonly maxConcurrency: number;
}

/**
 * How a strategy runs a turn, as rules the simulator applies to the sampled durations: the
 * strategy decides the rules, the simulator (which alone holds the durations) the times.
 */
export type Execution = WavesExecution | EagerExecution;

/**
 * A way of running the tool calls of a turn: the planners (through `plannerStrategy`), the
 * eager mode, and peers' strategies. Pass your own in `runBench({ strategies })` to compare it.
 *
 * @example
 * ```ts
 * const oneByOne: Strategy = {
 *   name: 'one-by-one',
 *   description: 'Every call after the previous one ended.',
 *   execute: ({ nodes, arrivalMs }) => ({
 *     kind: 'eager',
 *     nodes: nodes.map((node) => ({ index: node.index, parallelizable: false })),
 *     ...(arrivalMs === undefined ? {} : { arrivalMs }),
 *     maxConcurrency: 1,
 *   }),
 * };
 * await runBench({ strategies: [...defaultStrategies(), oneByOne] });
 * ```
 * @see defaultStrategies
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
  /** The planner behind a wave strategy (timed for scaling, run for real). */
  readonly planner?: Planner;
  /** Decides how the turn runs (pure: the same view gives the same execution). */
  execute(turn: TurnView): Execution;
}

/**
 * When the model stopped writing the turn: the latest arrival in a streamed turn, 0 in a batch.
 *
 * @example streamEnd({ nodes, maxConcurrency: 8, arrivalMs: [150, 300] }); // 300
 */
export function streamEnd(turn: TurnView): number {
  let end = 0;
  for (const arrival of turn.arrivalMs ?? []) if (arrival > end) end = arrival;
  return end;
}
