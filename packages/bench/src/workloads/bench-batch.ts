import type { ToolCall } from '@toolwaves/core';
import type { PlanNode } from '@toolwaves/planner';

/** One batch as the bench compares it. */
export interface BenchBatch {
  /** Number of calls. */
  readonly size: number;
  /** What planners see; `estimateMs` is each call's sampled duration. */
  readonly nodes: readonly PlanNode[];
  /** The calls themselves (tool workloads only: seed-model batches are nodes without tools). */
  readonly calls?: readonly ToolCall[];
}

/** A workload's batches, generated once per run and shared by every planner. */
export interface BenchWorkload {
  readonly name: string;
  readonly description: string;
  /** `tools`: calls of real tools, nodes from the registry; `seed-model`: plain nodes. */
  readonly kind: 'tools' | 'seed-model';
  readonly batches: readonly BenchBatch[];
}
