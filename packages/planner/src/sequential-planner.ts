import { assertNodes } from './assert-nodes.js';
import { resolveMaxConcurrency } from './max-concurrency.js';
import type { Planner, Wave } from './types.js';
import { checkPlannerOptions, PLAN_OPTIONS } from './unknown-options.js';

/**
 * One call per wave, in model order: nothing overlaps. Every wave is closed. Keeps rules 1–5
 * trivially; the baseline the other planners are measured against.
 *
 * @example
 * sequentialPlanner().plan(nodes).waves.map((wave) => wave.calls); // [[0], [1], [2], ...]
 * @see greedyPlanner
 */
export function sequentialPlanner(): Planner {
  return {
    name: 'sequential',
    keepsOrder: true,
    plan(nodes, options) {
      checkPlannerOptions({ subject: 'sequentialPlanner().plan', options, known: PLAN_OPTIONS });
      resolveMaxConcurrency(options);
      assertNodes(nodes);
      const waves: Wave[] = nodes.map((_, index) => ({ calls: [index], open: false }));
      return { planner: 'sequential', waves };
    },
  };
}
