import type { EagerPriority, PlanNode } from '@toolwaves/planner';
import fc from 'fast-check';
import { anyBatch } from './batch-arbitraries.js';

/** A batch as eager mode sees it: calls, when each arrives, the cap and the priority. */
export interface EagerScenario {
  readonly nodes: PlanNode[];
  readonly arrivalMs: number[];
  readonly maxConcurrency: number;
  readonly priority: EagerPriority;
}

/**
 * Generated eager scenarios: any batch, arrivals either in model order (a stream) or in any
 * order, a cap from 1 to 4. With `positive`, every call takes at least 1 ms.
 */
export const eagerScenario = (options: { maxLength?: number; positive?: boolean } = {}) =>
  anyBatch(options.maxLength ?? 25).chain((raw) => {
    const nodes =
      options.positive === true
        ? raw.map((node) => ({ ...node, estimateMs: Math.max(1, node.estimateMs ?? 1) }))
        : raw;
    const times = fc.array(fc.integer({ min: 0, max: 40 }), {
      minLength: nodes.length,
      maxLength: nodes.length,
    });
    return fc.record({
      nodes: fc.constant(nodes),
      arrivalMs: fc.oneof(
        times,
        times.map((list) => [...list].sort((a, b) => a - b)),
        fc.constant(nodes.map(() => 0)),
      ),
      maxConcurrency: fc.integer({ min: 1, max: 4 }),
      priority: fc.constantFrom<EagerPriority>('model-order', 'longest-first'),
    });
  });

/** The options of `simulateEager` in a scenario (the planner refuses keys it does not take). */
export const eagerOptions = ({ arrivalMs, maxConcurrency, priority }: EagerScenario) => ({
  arrivalMs,
  maxConcurrency,
  priority,
});

/** The options of `verifySchedule` in a scenario, with exact durations. */
export const exactScheduleOptions = ({ arrivalMs, maxConcurrency }: EagerScenario) => ({
  arrivalMs,
  maxConcurrency,
  exactDurations: true,
});
