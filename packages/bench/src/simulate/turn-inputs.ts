import { ToolHealth } from '@toolwaves/executor-rx';
import type { PlanNode } from '@toolwaves/planner';
import type { BenchWorkload } from '../workloads/workload.js';

/** The bench's default writing speed of a model, tokens per second. */
export const DEFAULT_TOKENS_PER_SECOND = 80;

/** The token model: a call costs `12 + argumentChars / 4` tokens; arrivals in ms. */
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

/** A batch's nodes with `estimateMs` set from `values` (left out where one is missing). */
export function withEstimates(
  nodes: readonly PlanNode[],
  values: readonly (number | undefined)[],
): PlanNode[] {
  return nodes.map(({ estimateMs: _ignored, ...node }, call) => {
    const value = values[call];
    return value === undefined ? node : { ...node, estimateMs: value };
  });
}

/** `ToolHealth`'s estimates per batch: warmed up, then fed each batch after it ran. */
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
