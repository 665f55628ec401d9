import type { PlanNode } from '@toolwaves/planner';

/**
 * A copy of a plan node as an object that starts from a literal. Nodes built with object spread
 * (as `planNodeForCall` does) are many times slower for V8 to read field by field than
 * literals, and the planner and `verifyPlan` read every node more than once; `Object.assign`
 * onto a literal copies them on a fast path and makes planning a large batch several times
 * cheaper (see `bench/overhead.ts`).
 */
export function plainPlanNode(node: PlanNode): PlanNode {
  return Object.assign({ index: 0, parallelizable: false }, node);
}
