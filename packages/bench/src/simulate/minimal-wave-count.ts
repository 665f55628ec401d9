import type { PlanNode } from '@toolwaves/planner';

/**
 * The fewest waves any valid plan of a seed-model batch can have: each call that is not
 * concurrency-safe needs a wave of its own, the safe calls on one exclusive key need one wave
 * each, and safe calls need at least one wave: `unsafe + max(max calls on one key, 1)` (just
 * `unsafe` when no call is safe). Greedy first-fit reaches it on every seed-model batch — the
 * j-th call on key K joins the j-th open wave — so any gap between greedy and a
 * duration-aware planner is in makespan, not in wave count.
 *
 * Only meaningful in the seed model: flat keys, no `access` lists (with read/write access and
 * hierarchical keys, reads share and the count is different).
 *
 * @example
 * // Read(a) Read(b) Edit(c)! Grep Read(a) Stat: 1 unsafe + 2 calls on `a` = 3 waves
 * minimalWaveCount(workedExample); // 3
 * @see seedModelWorkload
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
