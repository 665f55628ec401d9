import type { PlanNode } from '@toolwaves/planner';
import { keyConflict } from './reference-model.js';

// Plainly written references for eager scheduling: O(n²) on purpose.

/** Whether call `i` must wait for the earlier call `j`: they conflict, or either is not safe. */
export const mustWait = (nodes: readonly PlanNode[], j: number, i: number): boolean =>
  j < i &&
  (!nodes[j]!.parallelizable || !nodes[i]!.parallelizable || keyConflict(nodes[j]!, nodes[i]!));

/** For each call, every earlier call it must wait for. */
export function referenceWaits(nodes: readonly PlanNode[]): number[][] {
  return nodes.map((_, i) => nodes.flatMap((__, j) => (mustWait(nodes, j, i) ? [j] : [])));
}

/** For each call, every call it waits for directly or through others, ascending. */
export function closure(edges: readonly (readonly number[])[]): number[][] {
  const reach: Set<number>[] = [];
  for (let i = 0; i < edges.length; i++) {
    const all = new Set<number>();
    for (const j of edges[i]!) {
      all.add(j);
      for (const k of reach[j] ?? []) all.add(k);
    }
    reach.push(all);
  }
  return reach.map((set) => [...set].sort((a, b) => a - b));
}
