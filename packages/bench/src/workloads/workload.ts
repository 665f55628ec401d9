import type { ToolCall } from '@toolwaves/core';
import type { PlanNode } from '@toolwaves/planner';
import type { SeededRandom } from './seeded-random.js';
import type { WorkspaceLayout } from './workspace-layout.js';

/** What a workload is asked for: one batch of `size` calls. */
export interface BatchRequest {
  /** The batch's own seeded stream: the same request always gives the same batch. */
  readonly random: SeededRandom;
  /** How many calls (a workload with fixed `sizes` may ignore it). */
  readonly size: number;
  /** The workspace the calls refer to. */
  readonly layout: WorkspaceLayout;
}

/** One turn of an agent: the calls the model asked for, and how long each will take. */
export interface WorkloadBatch {
  /** Calls of the real filesystem tools (plus `run_check`), paths relative to the workspace. */
  readonly calls: readonly ToolCall[];
  /** Sampled duration of each call, in ms (`durationsMs[i]` is call `i`'s). */
  readonly durationsMs: readonly number[];
}

/** What every workload has: a name, one sentence for the report, and fixed sizes when it does not scale (e.g. a worked example). */
export interface WorkloadInfo {
  readonly name: string;
  readonly description: string;
  readonly sizes?: readonly number[];
}

/** A workload of real tool calls: its plan nodes come from the registry's declarations. */
export interface ToolWorkload extends WorkloadInfo {
  readonly kind: 'tools';
  /** Its tools are stand-ins that answer at once: simulated only, never run for real. */
  readonly simulatedOnly?: boolean;
  batch(request: BatchRequest): WorkloadBatch;
}

/** One seed-model batch: plain nodes, each call's abstract tool and sampled duration. */
export interface SeedModelBatch {
  /** Declarations only (`parallelizable`, one exclusive flat `resourceKey`), no `estimateMs`. */
  readonly nodes: readonly PlanNode[];
  /** The abstract tool of each call (`Read`, `Edit`, `Grep`, `Stat`, `Shell`). */
  readonly tools: readonly string[];
  /** Sampled duration of each call, in ms. */
  readonly durationsMs: readonly number[];
}

/**
 * A workload in the seed model: plain nodes (`parallelizable`, one exclusive flat
 * `resourceKey`), where greedy's wave count is known to be minimal.
 */
export interface SeedModelWorkload extends WorkloadInfo {
  readonly kind: 'seed-model';
  batch(request: BatchRequest): SeedModelBatch;
}

/**
 * A generator of batches: tool calls ({@link ToolWorkload}) or seed-model nodes. Pass your own
 * in `runBench({ workloads })`.
 *
 * @example await runBench({ workloads: [myWorkload], quick: true });
 * @see runBench
 */
export type Workload = ToolWorkload | SeedModelWorkload;

/** One generated batch: what strategies may see (`nodes`, no estimates) and the simulation's truth. */
export interface BenchBatch {
  readonly size: number;
  readonly nodes: readonly PlanNode[];
  /** Sampled durations, never shown to a strategy. */
  readonly durationsMs: readonly number[];
  /** Each call's tool: the key of the health record that estimates it. */
  readonly tools: readonly string[];
  /** Length of each call's arguments as JSON, for the token model. */
  readonly argumentChars: readonly number[];
  /** Tool workloads only. */
  readonly calls?: readonly ToolCall[];
}

/** A workload's batches for one seed, shared by every strategy; `warmup` turns feed the health record first. */
export interface BenchWorkload extends Omit<WorkloadInfo, 'sizes'> {
  readonly kind: Workload['kind'];
  readonly simulatedOnly?: boolean;
  readonly seed: number;
  readonly warmup: readonly Pick<BenchBatch, 'tools' | 'durationsMs'>[];
  readonly batches: readonly BenchBatch[];
}
