import {
  type CallExplanation,
  explainPlan,
  type Plan,
  type PlanNode,
  type Planner,
  verifyPlan,
} from '@toolwaves/planner';
import { errorMessage } from './attempt-answer.js';
import { DispatchError } from './dispatch-error.js';
import type { DispatchMode } from './dispatcher-options.js';
import type { PreparedCalls } from './prepared-call.js';

/** A batch's plan and, on demand, why each call sits where it does. */
export interface PlannedBatch {
  readonly plan: Plan;
  explain(): CallExplanation[];
}

/** Options of {@link planBatch}. */
export interface PlanBatchOptions {
  /** The planner of parallel batches. */
  readonly planner: Planner;
  /** The batch's calls, resolved once (their nodes carry the health record's estimates). */
  readonly prepared: PreparedCalls;
  readonly mode: DispatchMode;
  /** The cap in force (already clamped to the batch size). */
  readonly maxConcurrency: number;
}

// Plans a batch (one call per wave in sequential mode or under 2 calls) and verifies the plan.
/** @throws DispatchError `invalid_plan` when the planner throws or its plan breaks the rules. */
export function planBatch(options: PlanBatchOptions): PlannedBatch {
  const { planner, prepared, mode, maxConcurrency } = options;
  let nodes: PlanNode[] | undefined;
  const nodesOf = (): PlanNode[] => {
    nodes ??= prepared.nodes();
    return nodes;
  };
  if (mode === 'sequential' || prepared.length < 2) {
    const plan: Plan = {
      planner: 'sequential',
      waves: Array.from({ length: prepared.length }, (_, index) => ({
        calls: [index],
        open: false,
      })),
    };
    return { plan, explain: () => explainPlan(nodesOf(), plan) };
  }
  let plan: Plan;
  let violations: string[];
  try {
    plan = planner.plan(nodesOf(), { maxConcurrency });
    violations = verifyPlan(nodesOf(), plan, { ordered: planner.keepsOrder === true });
  } catch (error) {
    throw new DispatchError({
      code: 'invalid_plan',
      message: `Planner \`${planner.name}\` failed: ${errorMessage(error)}`,
      cause: error,
    });
  }
  if (violations.length > 0) {
    throw new DispatchError({
      code: 'invalid_plan',
      message: `Planner \`${planner.name}\` returned a plan that breaks the rules: ${violations.join('; ')}`,
      violations,
    });
  }
  return { plan, explain: () => explainPlan(nodesOf(), plan) };
}
