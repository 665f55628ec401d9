/** How a call uses a resource: reads may share it, a write needs it alone. */
export type AccessMode = 'read' | 'write';

/**
 * One resource a call touches. Keys are `/`-separated paths: a key overlaps itself, its
 * ancestors and its descendants (`fs:/a` overlaps `fs:/a/b.txt`).
 */
export interface Access {
  readonly key: string;
  readonly mode: AccessMode;
}

/**
 * What a planner sees of one tool call: its position and its declarations, nothing else.
 * A plain `resourceKey: K` means `access: [{ key: K, mode: 'write' }]`.
 */
export interface PlanNode {
  /** Position in the model's order; `nodes[i].index === i`. */
  readonly index: number;
  /** The call declared itself safe to run alongside others. */
  readonly parallelizable: boolean;
  /** Seed model: the one exclusive resource the call touches. */
  readonly resourceKey?: string;
  /** Richer model: every resource the call touches and how. */
  readonly access?: readonly Access[];
  /** Expected duration, for duration-aware planners and the simulator. */
  readonly estimateMs?: number;
  /**
   * Ordering edges: earlier calls (indices below `index`) this call must follow whatever their
   * declarations — a later wave than each, or a start after each ended (a `ToolCall`'s `after`
   * ids, resolved). See {@link edgesOf}.
   */
  readonly after?: readonly number[];
  /**
   * Set when the call must follow every earlier call of the batch; the value names why, for
   * explanations and events: `'after-previous'` (its tool runs after the previous calls) or
   * `'wait_for_previous'` (the model asked).
   */
  readonly afterPrevious?: PreviousEdgeSource;
}

/**
 * What put an ordering edge on a call: `'after'` (the call's own list of ids), `'after-previous'`
 * (its tool declares `runs: 'after-previous'`) or `'wait_for_previous'` (the model set that
 * argument). Named in explanations ("waits for call 2: `after`") and events.
 */
export type EdgeSource = 'after' | PreviousEdgeSource;

/** The edge sources that make a call follow every earlier call. */
export type PreviousEdgeSource = 'after-previous' | 'wait_for_previous';

/** One ordering edge of a call: it follows the earlier call `call`, because of `source`. */
export interface CallEdge {
  readonly call: number;
  readonly source: EdgeSource;
}

/** A group of calls that may run at the same time. */
export interface Wave {
  /** Call indices, ascending. */
  readonly calls: readonly number[];
  /** Whether the wave accepted further calls when planning ended (singletons of unsafe calls are born closed). */
  readonly open: boolean;
}

/** The waves of one batch, run one after another in order. */
export interface Plan {
  /** Name of the planner that made it. */
  readonly planner: string;
  readonly waves: readonly Wave[];
  /** For planners that search: whether the plan is proven to be the best possible. */
  readonly proven?: boolean;
}

/** Options every planner accepts. */
export interface PlanOptions {
  /** How many calls may run at once inside a wave (default 8). */
  readonly maxConcurrency?: number;
}

/** A planning strategy: nodes in, waves out; pure, no I/O. */
export interface Planner {
  readonly name: string;
  /**
   * The planner promises rule 5 in every plan: every call before a call that is not
   * concurrency-safe runs in an earlier wave, every call after it in a later one (nothing
   * crosses it). `true` for {@link orderedPlanner} and {@link sequentialPlanner}; missing or
   * `false` when calls may cross (greedy, optimal). An executor reads it instead of the name.
   */
  readonly keepsOrder?: boolean;
  plan(nodes: readonly PlanNode[], options?: PlanOptions): Plan;
}

/**
 * When each call of a batch runs, in ms from the batch's start: call `i` runs from
 * `startMs[i]` to `endMs[i]`. Made by {@link simulateEager}, checked by {@link verifySchedule}.
 */
export interface Schedule {
  readonly startMs: readonly number[];
  readonly endMs: readonly number[];
}

/**
 * Which ready call takes a free slot first when calls start as soon as they may:
 * `'model-order'` the earliest in model order; `'longest-first'` the one with the largest
 * estimate, ties by model order.
 */
export type EagerPriority = 'model-order' | 'longest-first';

/**
 * Options of the first-fit packing behind the greedy and ordered planners (`firstFit`, and its
 * fast path for plain keys `plainKeyFit`). Internal to the package: not exported.
 */
export interface FirstFitOptions {
  /** Name written into the plan. */
  readonly planner: string;
  /** Keep rule 5: no call crosses a call that is not concurrency-safe. */
  readonly ordered: boolean;
}
