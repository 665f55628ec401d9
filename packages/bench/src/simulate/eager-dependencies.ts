import { conflicts, type PlanNode } from '@toolwaves/planner';

/**
 * Per call, the earlier calls it waits for in eager mode: every earlier call it
 * {@link conflicts} with — which includes every earlier call when either of the two is not
 * concurrency-safe (rules 4 and 5). The contract of the planner's `dependencies`, computed
 * here by comparing pairs (batches of the bench are small).
 *
 * @example eagerDependencies(workedExample); // [[], [], [0, 1], [2], [0, 2], [2]]
 */
export function eagerDependencies(nodes: readonly PlanNode[]): number[][] {
  return nodes.map((node, index) => {
    const before: number[] = [];
    for (let earlier = 0; earlier < index; earlier++) {
      if (conflicts(nodes[earlier]!, node)) before.push(earlier);
    }
    return before;
  });
}
