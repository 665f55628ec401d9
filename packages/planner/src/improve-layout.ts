import type { WaveLayout } from './wave-layout.js';
import type { WorkBudget } from './work-budget.js';

/**
 * Local search on a {@link WaveLayout}: moves one safe call at a time to another wave its
 * placement window allows, or to a new wave of its own, whenever that lowers the summed cost,
 * or keeps it and removes a wave. Calls are tried longest first; passes repeat until none moves
 * or the budget runs out (a step per call tried). Every move keeps rules 3 and 4 and
 * strictly improves (cost, waves), so the search ends and never returns something worse than
 * it was given. Mutates and returns `layout`. Internal to the package.
 *
 * @example improveLayout(new WaveLayout(graph, 2, greedyBlocks), budget).total()
 * @see longestFirstFit
 */
export function improveLayout(layout: WaveLayout, budget: WorkBudget): WaveLayout {
  const { durations } = layout.graph;
  const order = durations
    .map((_, position) => position)
    .sort((a, b) => durations[b]! - durations[a]! || a - b);
  const tolerance = 1e-9 * Math.max(1, layout.total());
  let moved = true;
  while (moved) {
    moved = false;
    for (let i = 0; i < order.length; i++) {
      if (!budget.take()) return layout;
      if (moveOnce(layout, order[i]!, tolerance)) moved = true;
    }
  }
  return layout;
}

/** The best improving move of one call, applied; whether there was one. */
function moveOnce(layout: WaveLayout, position: number, tolerance: number): boolean {
  const from = layout.waveOf[position]!;
  const alone = layout.blocks[from]!.length === 1;
  const saved = layout.costs[from]! - layout.costWithout(from, position);
  const { after, before } = layout.window(position);
  let bestWave = -1;
  let bestDelta = Number.POSITIVE_INFINITY;
  for (let wave = after + 1; wave < before; wave++) {
    if (wave === from) continue;
    const delta = layout.costWith(wave, position) - layout.costs[wave]! - saved;
    if (delta < bestDelta) {
      bestWave = wave;
      bestDelta = delta;
    }
  }
  // Moving a call that is alone in its wave also removes that wave: equal cost is a gain.
  if (bestWave !== -1 && bestDelta <= (alone ? 0 : -tolerance)) {
    const removed = layout.remove(position);
    layout.add(removed && bestWave > from ? bestWave - 1 : bestWave, position);
    return true;
  }
  if (!alone && layout.graph.durations[position]! - saved < -tolerance) {
    layout.remove(position);
    layout.insertWave(after + 1, position);
    return true;
  }
  return false;
}
