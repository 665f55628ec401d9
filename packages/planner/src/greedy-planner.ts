import { firstFit } from './first-fit.js';
import { resolveMaxConcurrency } from './max-concurrency.js';
import type { Planner } from './types.js';
import { checkPlannerOptions, PLAN_OPTIONS } from './unknown-options.js';

/**
 * The seed's greedy first-fit, exactly (`waves-spec.txt`, "The planning algorithm"). For each
 * call in model order:
 * 1. not concurrency-safe → its own wave, born closed;
 * 2. safe, keyless → the earliest open wave;
 * 3. safe, key K → the earliest open wave that doesn't hold K;
 * 4. no such wave → a new open wave.
 *
 * Open waves never close, so a late keyless call still lands in wave 1. With `access` lists,
 * "holds K" becomes "holds a conflicting access" (see {@link conflicts}), and a call never joins
 * a wave at or before the last wave holding a conflicting earlier call (rule 4), so a later
 * reader never runs before an earlier writer. Calls may cross a call that is not
 * concurrency-safe (use {@link orderedPlanner} to forbid that). With plain `resourceKey`s none
 * of which is an ancestor of another, the plan is the seed's.
 *
 * Cost: one pass, no scan over waves; O(total accesses × key depth).
 *
 * @example
 * const nodes = [
 *   { index: 0, parallelizable: true, resourceKey: 'a' },  // Read(a)
 *   { index: 1, parallelizable: true, resourceKey: 'b' },  // Read(b)
 *   { index: 2, parallelizable: false },                   // Edit(c)
 *   { index: 3, parallelizable: true },                    // Grep(*)
 *   { index: 4, parallelizable: true, resourceKey: 'a' },  // Read(a)
 *   { index: 5, parallelizable: true },                    // Stat(*)
 * ];
 * greedyPlanner().plan(nodes).waves;
 * // [{ calls: [0, 1, 3, 5], open: true }, { calls: [2], open: false }, { calls: [4], open: true }]
 * @see orderedPlanner
 * @see verifyPlan
 */
export function greedyPlanner(): Planner {
  return {
    name: 'greedy',
    plan(nodes, options) {
      checkPlannerOptions({ subject: 'greedyPlanner().plan', options, known: PLAN_OPTIONS });
      resolveMaxConcurrency(options);
      return firstFit(nodes, { planner: 'greedy', ordered: false });
    },
  };
}
