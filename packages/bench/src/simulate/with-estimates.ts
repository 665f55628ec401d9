import type { PlanNode } from '@toolwaves/planner';

/**
 * A batch's nodes with `estimateMs` set from `values`, call by call, and left out where a value
 * is missing (a tool the health record has not seen): what a strategy is shown (the record's
 * estimates) or what the simulator runs (the sampled durations). Pure.
 *
 * @example withEstimates(batch.nodes, batch.durationsMs); // the simulation's truth
 * @see healthEstimates
 */
export function withEstimates(
  nodes: readonly PlanNode[],
  values: readonly (number | undefined)[],
): PlanNode[] {
  return nodes.map(({ estimateMs: _ignored, ...node }, call) => {
    const value = values[call];
    return value === undefined ? node : { ...node, estimateMs: value };
  });
}
