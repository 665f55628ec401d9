import { ToolHealth } from '@toolwaves/executor-rx';
import type { PlanNode } from '@toolwaves/planner';
import type { BenchWorkload } from '../workloads/workload.js';

/** The bench's default writing speed of a model, tokens per second. */
export const DEFAULT_TOKENS_PER_SECOND = 80;

/**
 * The token model of a streamed turn: the model writes the calls one after another, each
 * costing `12 + argumentChars / 4` tokens; a call arrives when its last token is written. Times
 * in ms from the first tool-call token.
 */
export function arrivalTimes(options: {
  readonly argumentChars: readonly number[];
  readonly tokensPerSecond?: number;
}): number[] {
  const rate = options.tokensPerSecond ?? DEFAULT_TOKENS_PER_SECOND;
  let tokens = 0;
  return options.argumentChars.map((chars) => {
    tokens += 12 + chars / 4;
    return (tokens / rate) * 1000;
  });
}

/**
 * A batch's nodes with `estimateMs` set from `values` (left out where a value is missing):
 * what a strategy is shown (estimates) or what the simulator runs (sampled durations).
 */
export function withEstimates(
  nodes: readonly PlanNode[],
  values: readonly (number | undefined)[],
): PlanNode[] {
  return nodes.map(({ estimateMs: _ignored, ...node }, call) => {
    const value = values[call];
    return value === undefined ? node : { ...node, estimateMs: value };
  });
}

/**
 * What a dispatcher's health record would estimate for each call of each batch: the
 * executor's own `ToolHealth` (alpha 0.2), warmed up on the workload's warm-up turns, then fed
 * each batch's durations after that batch ran, so a batch never sees its own durations. A tool
 * never seen has no estimate (the planner's default applies).
 */
export function healthEstimates(options: {
  readonly workload: BenchWorkload;
}): (number | undefined)[][] {
  const health = new ToolHealth({ alpha: 0.2 });
  const record = (turn: { tools: readonly string[]; durationsMs: readonly number[] }): void => {
    turn.tools.forEach((toolName, call) => {
      health.record({ toolName, ok: true, durationMs: turn.durationsMs[call]! });
    });
  };
  for (const turn of options.workload.warmup) record(turn);
  return options.workload.batches.map((batch) => {
    const estimates = batch.tools.map((tool) => health.stats(tool).latencyMs);
    record(batch);
    return estimates;
  });
}
