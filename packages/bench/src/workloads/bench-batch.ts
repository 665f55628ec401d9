import type { ToolCall } from '@toolwaves/core';
import type { PlanNode } from '@toolwaves/planner';

/** One batch as the bench compares it: what strategies may see, and what the simulation uses. */
export interface BenchBatch {
  /** Number of calls. */
  readonly size: number;
  /** The calls' declarations (no `estimateMs`: estimates come from the health record). */
  readonly nodes: readonly PlanNode[];
  /** Each call's sampled duration, ms: the simulation's truth, never shown to a strategy. */
  readonly durationsMs: readonly number[];
  /** Each call's tool, the key of the health record that estimates it. */
  readonly tools: readonly string[];
  /** Length of each call's arguments as JSON, for the token model of streamed turns. */
  readonly argumentChars: readonly number[];
  /** The calls themselves (tool workloads only: seed-model batches are nodes without tools). */
  readonly calls?: readonly ToolCall[];
}

/** Turns before the measured ones, whose durations warm the health record up. */
export interface WarmupTurn {
  readonly tools: readonly string[];
  readonly durationsMs: readonly number[];
}

/** A workload's batches for one seed, generated once per run and shared by every strategy. */
export interface BenchWorkload {
  readonly name: string;
  readonly description: string;
  /** `tools`: calls of real tools, nodes from the registry; `seed-model`: plain nodes. */
  readonly kind: 'tools' | 'seed-model';
  /** Simulated only, never run for real (stand-in tools). */
  readonly simulatedOnly?: boolean;
  /** The seed the batches were generated from. */
  readonly seed: number;
  /** Earlier turns of the same seed: the health record has seen their durations. */
  readonly warmup: readonly WarmupTurn[];
  readonly batches: readonly BenchBatch[];
}
