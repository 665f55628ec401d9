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

/**
 * A generator of batches of tool calls (of the tools `runBench`'s `registryFor` gives), each
 * with its sampled durations. Pass your own in `runBench({ workloads })`.
 *
 * @example await runBench({ workloads: [myWorkload], quick: true });
 * @see runBench
 */
export interface Workload {
  readonly name: string;
  /** One sentence for the report. */
  readonly description: string;
  /** Its tools are stand-ins: simulated only, never run for real. */
  readonly simulatedOnly?: boolean;
  batch(request: BatchRequest): WorkloadBatch;
}

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
  /** The calls (a batch without them is simulated only). */
  readonly calls?: readonly ToolCall[];
}

/** A workload's batches for one seed; `warmup` turns feed the health record first. */
export interface BenchWorkload extends Omit<Workload, 'batch'> {
  readonly seed: number;
  readonly warmup: readonly Pick<BenchBatch, 'tools' | 'durationsMs'>[];
  readonly batches: readonly BenchBatch[];
}
