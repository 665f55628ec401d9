import type { PlanNode } from '@toolwaves/planner';

/** The fewest waves of a valid seed-model plan: unsafe + max(most calls on a key, 1). */
export function minimalWaveCount(nodes: readonly PlanNode[]): number {
  let unsafe = 0;
  let safe = 0;
  let busiest = 0;
  const perKey = new Map<string, number>();
  for (const node of nodes) {
    if (!node.parallelizable) {
      unsafe++;
      continue;
    }
    safe++;
    if (node.resourceKey === undefined) continue;
    const count = (perKey.get(node.resourceKey) ?? 0) + 1;
    perKey.set(node.resourceKey, count);
    if (count > busiest) busiest = count;
  }
  return unsafe + (safe === 0 ? 0 : Math.max(busiest, 1));
}
