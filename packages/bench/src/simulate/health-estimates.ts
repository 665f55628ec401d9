import { ToolHealth } from '@toolwaves/executor-rx';
import type { BenchWorkload } from '../workloads/workload.js';

/** The weight of the newest sample in the health record's average (the executor's default). */
export const HEALTH_ALPHA = 0.2;

/**
 * What a dispatcher's health record would estimate for each call of each batch (pure): the
 * executor's own `ToolHealth` (an exponentially weighted average per tool), warmed up on the
 * workload's warm-up turns, then fed each measured batch's durations after that batch ran — so
 * batch `k` is planned on what turns before it showed, never on its own durations. A tool
 * never seen yet has no estimate (`undefined`: the planner's default applies).
 *
 * @example healthEstimates({ workload })[2]; // estimates of the third batch's calls
 */
export function healthEstimates(options: {
  readonly workload: BenchWorkload;
  readonly alpha?: number;
}): (number | undefined)[][] {
  const health = new ToolHealth({ alpha: options.alpha ?? HEALTH_ALPHA });
  const record = (tools: readonly string[], durationsMs: readonly number[]): void => {
    tools.forEach((toolName, call) => {
      health.record({ toolName, ok: true, durationMs: durationsMs[call]! });
    });
  };
  for (const turn of options.workload.warmup) record(turn.tools, turn.durationsMs);
  return options.workload.batches.map((batch) => {
    const estimates = batch.tools.map((tool) => health.stats(tool).latencyMs);
    record(batch.tools, batch.durationsMs);
    return estimates;
  });
}
