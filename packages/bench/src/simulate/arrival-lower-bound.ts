import { lowerBound, type PlanNode } from '@toolwaves/planner';

/**
 * A turn time no strategy that keeps rules 1–5 can beat when the calls arrive over time
 * (pure): the largest of the batch's `lowerBound` (`nodes` carry the sampled durations) and,
 * for every call, its arrival plus its own duration — nothing can finish a call before it was
 * written and run. Also, calls that are not concurrency-safe run alone and in order, so from
 * the arrival of each such call, it and every later one of them still have to run.
 *
 * @example arrivalLowerBound({ nodes, arrivalMs: [100, 200], maxConcurrency: 8 });
 */
export function arrivalLowerBound(options: {
  readonly nodes: readonly PlanNode[];
  readonly arrivalMs: readonly number[];
  readonly maxConcurrency: number;
}): number {
  const { nodes, arrivalMs } = options;
  let bound = lowerBound(nodes, { maxConcurrency: options.maxConcurrency });
  let unsafeAfter = 0;
  for (let call = nodes.length - 1; call >= 0; call--) {
    const node = nodes[call]!;
    const duration = node.estimateMs ?? 0;
    bound = Math.max(bound, arrivalMs[call]! + duration);
    if (!node.parallelizable) {
      unsafeAfter += duration;
      bound = Math.max(bound, arrivalMs[call]! + unsafeAfter);
    }
  }
  return bound;
}
