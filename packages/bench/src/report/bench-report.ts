/** One planner's figures on one batch. */
export interface BatchResult {
  readonly planner: string;
  readonly waves: number;
  /** Simulated makespan (the planner package's `makespan`), ms. */
  readonly makespanMs: number;
  /** Planning time, ms. */
  readonly planMs: number;
  /** The plan's `proven` flag; `null` when the planner does not say. */
  readonly proven: boolean | null;
  /** Rule violations found by `verifyPlan` (rules 1–4); expected 0. */
  readonly violations: number;
}

/** Every planner's figures on one batch. */
export interface BatchFigures {
  readonly size: number;
  /** The planner package's `lowerBound` of the batch, ms. */
  readonly lowerBoundMs: number;
  /** For seed-model batches: the fewest waves any valid plan can have; `null` otherwise. */
  readonly minimalWaves: number | null;
  readonly results: readonly BatchResult[];
}

/** How a planner compares with the reference planner (greedy), batch by batch. */
export interface VersusReference {
  /** The reference planner's name. */
  readonly reference: string;
  /** Summed makespan ÷ the reference's summed makespan (below 1: faster than the reference). */
  readonly ratio: number;
  /** Batches where this planner's makespan is lower than the reference's. */
  readonly faster: number;
  /** Batches where it is higher. */
  readonly slower: number;
  /** The largest per-batch gain, as a share of the reference's makespan (0 when never faster). */
  readonly bestGain: number;
}

/** One planner's figures on one workload, summed or averaged over its batches. */
export interface PlannerResult {
  readonly planner: string;
  /** Waves, summed over the batches. */
  readonly waves: number;
  /** Simulated makespan, summed over the batches, ms. */
  readonly makespanMs: number;
  /** Lower bound, summed over the batches, ms (the same for every planner). */
  readonly lowerBoundMs: number;
  /** `makespanMs / lowerBoundMs`: how far from the best conceivable, 1 = at the bound. */
  readonly ratio: number;
  /** The largest per-batch makespan ÷ lower bound. */
  readonly worstRatio: number;
  /** Mean planning time per batch, ms. */
  readonly planMs: number;
  /** Share of batches whose plan is proven optimal; `null` when the planner never says. */
  readonly proven: number | null;
  /** Plans that break rules 1–4 (`verifyPlan`); expected 0. */
  readonly invalidPlans: number;
  /** Against greedy; `null` for greedy itself or when greedy is not bound. */
  readonly versus: VersusReference | null;
  /** Seed-model workloads: batches whose wave count is above the minimal one; `null` otherwise. */
  readonly aboveMinimalWaves: number | null;
}

/** One workload's figures. */
export interface WorkloadFigures {
  readonly name: string;
  readonly description: string;
  readonly kind: 'tools' | 'seed-model';
  /** Number of batches. */
  readonly batches: number;
  /** Calls over all batches. */
  readonly calls: number;
  readonly results: readonly PlannerResult[];
  readonly perBatch: readonly BatchFigures[];
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

/** Real executions of one workload's batches with one planner. */
export interface RealRunFigures {
  readonly workload: string;
  readonly planner: string;
  readonly batches: number;
  readonly calls: number;
  /** Measured wall-clock of the dispatches, summed, ms. */
  readonly wallMs: number;
  /** Simulated makespan × latency scale, summed, ms: what the wall-clock would be with no overhead. */
  readonly simulatedMs: number;
  /**
   * How much the repeats of a dispatch disagree: the mean over batches of (slowest − fastest) ÷
   * median. Ratios between planners smaller than this are noise (0 with a single repeat).
   */
  readonly spread: number;
  /** Results with `isError: true` (expected 0: the batches are valid on a fresh workspace). */
  readonly errors: number;
  /** The first few error results, `tool: content`, to tell what went wrong. */
  readonly errorSamples: readonly string[];
}

/** One bar of a Gantt chart. */
export interface GanttBar {
  readonly call: number;
  readonly wave: number;
  readonly lane: number;
  readonly startMs: number;
  readonly endMs: number;
  /** e.g. `read_file src/core/file0.ts`. */
  readonly label: string;
}

/** The schedules of one batch, one per planner. */
export interface GanttFigures {
  readonly workload: string;
  /** The batch's position in the workload. */
  readonly batch: number;
  readonly size: number;
  readonly lowerBoundMs: number;
  /** Why this batch was chosen. */
  readonly why: string;
  readonly planners: readonly {
    readonly planner: string;
    readonly makespanMs: number;
    readonly waves: number;
    readonly bars: readonly GanttBar[];
  }[];
}

/** How the run was made. */
export interface BenchMeta {
  readonly seed: number;
  readonly quick: boolean;
  readonly maxConcurrency: number;
  readonly sizes: readonly number[];
  readonly repeats: number;
  /** Planner names, in binding order. */
  readonly planners: readonly string[];
  /** The planner others are compared with (`greedy` when bound). */
  readonly reference: string | null;
  /** Real runs: injected latency = sampled duration × this (0: no real runs). */
  readonly latencyScale: number;
  /** Real runs: the batch sizes run. */
  readonly realSizes: readonly number[];
  /** Real runs: dispatches per batch and planner (the median counts). */
  readonly realRepeats: number;
  /** The command that reproduces the run. */
  readonly command: string;
  readonly generatedAt: string;
  readonly environment: string;
}

/** Everything a run measured: `report.json`, and the input of the markdown and HTML reports. */
export interface BenchReport {
  readonly meta: BenchMeta;
  readonly workloads: readonly WorkloadFigures[];
  readonly scaling: readonly ScalingPoint[];
  readonly realRuns: readonly RealRunFigures[];
  readonly gantt: GanttFigures | null;
}
