import type { Plan, PlanNode, Planner } from '@toolwaves/planner';

/** What a strategy is told about a turn: never the sampled durations. */
export interface TurnView {
  /** Declarations; `estimateMs` the estimate (clairvoyant: the duration). */
  readonly nodes: readonly PlanNode[];
  /** The cap of capped strategies. */
  readonly maxConcurrency: number;
  /** Streamed turns only: when each call was written, ms from the first tool-call token. */
  readonly arrivalMs?: readonly number[];
}

/** A wave plan: waves one after another from `startMs` (the planner package's `makespan`). */
export interface WavesExecution {
  readonly kind: 'waves';
  readonly plan: Plan;
  readonly maxConcurrency: number;
  /** When the first wave may start (wait-then-waves: the stream's end). */
  readonly startMs: number;
}

/**
 * The planner package's eager ready queue (`simulateEager`) on the declarations the strategy
 * acts on: a peer states its rule as declarations (Codex's global lock: a read or a write of one
 * key; all-at-once: everything safe).
 */
export interface EagerExecution {
  readonly kind: 'eager';
  /** The declarations acted on (their `estimateMs` are replaced by the durations). */
  readonly nodes: readonly PlanNode[];
  /** Earliest start of each call (default 0). */
  readonly arrivalMs?: readonly number[];
  readonly maxConcurrency: number;
}

/** How a strategy runs a turn: rules the simulator, which alone holds the durations, applies. */
export type Execution = WavesExecution | EagerExecution;

/**
 * A way of running the tool calls of a turn: the planners (through `plannerStrategy`), the
 * eager mode, and peers' strategies. Pass your own in `runBench({ strategies })` to compare it.
 *
 * @example await runBench({ strategies: [...defaultStrategies(), myStrategy] }); // README: a whole one
 * @see defaultStrategies
 */
export interface Strategy {
  /** Unique among the strategies compared; the row of the report. */
  readonly name: string;
  /** One sentence for the report. */
  readonly description: string;
  /** Sees the sampled durations: shown only as labelled headroom. */
  readonly clairvoyant?: boolean;
  /** The planner behind a wave strategy (`greedy`'s runs for real). */
  readonly planner?: Planner;
  /** Decides how the turn runs (pure). */
  execute(turn: TurnView): Execution;
}

/**
 * When the model stopped writing the turn: the latest arrival in a streamed turn, 0 in a batch.
 *
 * @example streamEnd({ nodes, maxConcurrency: 8, arrivalMs: [150, 300] }); // 300
 */
export function streamEnd(turn: TurnView): number {
  return Math.max(0, ...(turn.arrivalMs ?? []));
}
