import type { ToolCall } from '@toolwaves/core';
import type { PlanNode } from '@toolwaves/planner';
import type { SeededRandom } from './seeded-random.js';
import type { WorkspaceLayout } from './workspace-layout.js';

/** What a workload is asked for: a batch of `size` calls, from its own seeded stream. */
export interface BatchRequest {
  readonly random: SeededRandom;
  readonly size: number;
  readonly layout: WorkspaceLayout;
}

/** One turn of real tool calls and each call's sampled duration, ms. */
export interface WorkloadBatch {
  readonly calls: readonly ToolCall[];
  readonly durationsMs: readonly number[];
}

/** A name, a sentence for the report, and fixed sizes when it does not scale. */
export interface WorkloadInfo {
  readonly name: string;
  readonly description: string;
  readonly sizes?: readonly number[];
}

/** A workload of real tool calls; `simulatedOnly`: stand-ins, never run for real. */
export interface ToolWorkload extends WorkloadInfo {
  readonly kind: 'tools';
  readonly simulatedOnly?: boolean;
  batch(request: BatchRequest): WorkloadBatch;
}

/** One seed-model batch: nodes, each call's abstract tool and sampled duration. */
export interface SeedModelBatch {
  readonly nodes: readonly PlanNode[];
  readonly tools: readonly string[];
  readonly durationsMs: readonly number[];
}

/** A workload in the seed model, where greedy's wave count is minimal. */
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

/**
 * One generated batch: what strategies may see (`nodes`, no estimates) and the simulation's truth.
 */
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

/** A workload's batches for one seed; `warmup` turns feed the health record first. */
export interface BenchWorkload extends Omit<WorkloadInfo, 'sizes'> {
  readonly kind: Workload['kind'];
  readonly simulatedOnly?: boolean;
  readonly seed: number;
  readonly warmup: readonly Pick<BenchBatch, 'tools' | 'durationsMs'>[];
  readonly batches: readonly BenchBatch[];
}
