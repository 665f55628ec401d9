import type { ConflictGraph } from './conflict-graph.js';
import { WaveLayout } from './wave-layout.js';
import type { WorkBudget } from './work-budget.js';

/**
 * A duration-aware packing of the safe calls: longest calls first (ties in model order), each
 * into the wave, among those rule 4 leaves it, whose cost grows least — or into a new wave
 * right after its latest conflicting predecessor when every wave would grow by more than the
 * call's own duration. Long calls set the waves' lengths and short ones fill the gaps beside
 * them, which first-fit in model order does not aim for. Returns `undefined` if the budget runs
 * out first (a step per call placed). Internal to the package.
 *
 * @example longestFirstFit(graph, 4, budget)?.blocks // [[0, 1, 3], [2]]
 * @see improveLayout
 */
export function longestFirstFit(
  graph: ConflictGraph,
  slots: number,
  budget: WorkBudget,
): WaveLayout | undefined {
  const layout = new WaveLayout(graph, slots);
  const order = graph.durations
    .map((_, position) => position)
    .sort((a, b) => graph.durations[b]! - graph.durations[a]! || a - b);
  for (let i = 0; i < order.length; i++) {
    if (!budget.take()) return undefined;
    const position = order[i]!;
    const { after, before } = layout.window(position);
    let bestWave = -1;
    let bestGrowth = Number.POSITIVE_INFINITY;
    for (let wave = after + 1; wave < before; wave++) {
      const growth = layout.costWith(wave, position) - layout.costs[wave]!;
      if (growth < bestGrowth) {
        bestWave = wave;
        bestGrowth = growth;
      }
    }
    if (bestWave === -1 || bestGrowth > graph.durations[position]!) {
      layout.insertWave(after + 1, position);
    } else {
      layout.add(bestWave, position);
    }
  }
  return layout;
}
