import type { PlanNode } from '@toolwaves/planner';

/**
 * The fewest waves any valid plan of a seed-model batch (flat exclusive keys, no `access`) can
 * have: `unsafe + max(most calls on one key, 1)`, or just `unsafe` when no call is safe. Greedy
 * first-fit reaches it on every seed-model batch, so any gap between greedy and a
 * duration-aware planner is in makespan, not in wave count.
 */
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
