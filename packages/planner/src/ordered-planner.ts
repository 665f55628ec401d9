import { firstFit } from './first-fit.js';
import { resolveMaxConcurrency } from './max-concurrency.js';
import type { Planner } from './types.js';
import { checkPlannerOptions, PLAN_OPTIONS } from './unknown-options.js';

/**
 * First-fit that keeps model order around calls that are not concurrency-safe (rule 5): every
 * call before such a call runs in an earlier wave, every call after it in a later one — the
 * barrier behaviour of Codex and Claude Code. Between two barriers it packs like
 * {@link greedyPlanner} over the whole stretch, not only consecutive calls: a safe call joins
 * the earliest open wave of its stretch that comes after every wave holding a conflicting
 * earlier call. Waves of a stretch close when the next barrier arrives.
 *
 * @example
 * // Read(a), Read(b), Edit(c) unsafe, Grep, Read(a), Stat
 * orderedPlanner().plan(nodes).waves.map((wave) => wave.calls);
 * // [[0, 1], [2], [3, 4, 5]]
 * @see greedyPlanner
 * @see sequentialPlanner
 */
export function orderedPlanner(): Planner {
  return {
    name: 'ordered',
    keepsOrder: true,
    plan(nodes, options) {
      checkPlannerOptions({ subject: 'orderedPlanner().plan', options, known: PLAN_OPTIONS });
      resolveMaxConcurrency(options);
      return firstFit(nodes, { planner: 'ordered', ordered: true });
    },
  };
}
