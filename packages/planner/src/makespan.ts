import { assertNodes } from './assert-nodes.js';
import { describeValue } from './describe-value.js';
import { estimateOf } from './estimate-of.js';
import { listSchedule } from './list-schedule.js';
import { resolveMaxConcurrency } from './max-concurrency.js';
import { PlannerError } from './planner-error.js';
import type { Plan, PlanNode, PlanOptions } from './types.js';
import { checkPlannerOptions, PLAN_OPTIONS } from './unknown-options.js';

/**
 * The simulated duration of a plan, in ms: waves run one after another; inside a wave the
 * calls start in the order listed (ascending) as slots free up, at most `maxConcurrency`
 * (default 8) at a time — list scheduling, as the executor's `mergeMap(run, cap)` does.
 * Durations are `estimateMs`, or {@link DEFAULT_ESTIMATE_MS} (1 ms) when missing.
 *
 * It does not check the rules (use {@link verifyPlan}); it only needs every listed call to be
 * in the batch.
 *
 * @throws {PlannerError} `invalid_options` for a bad `maxConcurrency`, `invalid_nodes` for a
 * malformed node or estimate, `invalid_plan` when a wave names a call the batch does not have.
 * @example
 * makespan(nodes, greedyPlanner().plan(nodes), { maxConcurrency: 4 });
 * @see lowerBound
 */
export function makespan(nodes: readonly PlanNode[], plan: Plan, options?: PlanOptions): number {
  checkPlannerOptions({ subject: 'makespan', options, known: PLAN_OPTIONS });
  const slots = resolveMaxConcurrency(options);
  assertNodes(nodes, { estimates: true });
  let total = 0;
  const durations: number[] = [];
  for (let w = 0; w < plan.waves.length; w++) {
    durations.length = 0;
    for (const call of plan.waves[w]!.calls) {
      const node = Number.isInteger(call) ? nodes[call] : undefined;
      if (node === undefined) {
        throw new PlannerError({
          code: 'invalid_plan',
          message: `Expected the calls of wave ${w + 1} to be in the batch of ${nodes.length} calls, got ${describeValue(call)}`,
        });
      }
      durations.push(estimateOf(node));
    }
    total += listSchedule(durations, slots);
  }
  return total;
}
