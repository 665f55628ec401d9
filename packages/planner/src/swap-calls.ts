import type { WaveLayout } from './wave-layout.js';
import type { WorkBudget } from './work-budget.js';

/**
 * Local search by exchange: swaps two safe calls of different waves when each may run in the
 * other's wave (its placement window allows it and, once the other has left, nothing there
 * conflicts with it) and the swap shortens the two waves together. Balances waves that single
 * moves cannot, since a move alone lengthens the wave it joins. One pass over all pairs;
 * mutates `layout` and returns whether it changed. Stops early once the budget runs out
 * (a step per call whose pairs are tried). Internal to the package.
 *
 * @example swapCalls(layout, budget); // true if some swap paid
 * @see improveLayout
 */
export function swapCalls(layout: WaveLayout, budget: WorkBudget): boolean {
  const { graph } = layout;
  const count = graph.safe.length;
  const tolerance = 1e-9 * Math.max(1, layout.total());
  let changed = false;
  for (let a = 0; a < count; a++) {
    if (!budget.take()) break;
    for (let b = a + 1; b < count; b++) {
      const waveA = layout.waveOf[a]!;
      const waveB = layout.waveOf[b]!;
      if (waveA === waveB || graph.durations[a] === graph.durations[b]) continue;
      if (!fits(layout, a, waveB, b) || !fits(layout, b, waveA, a)) continue;
      const before = layout.costs[waveA]! + layout.costs[waveB]!;
      const after = layout.costOf(waveA, b, a) + layout.costOf(waveB, a, b);
      if (after < before - tolerance) {
        layout.exchange(a, b);
        changed = true;
      }
    }
  }
  return changed;
}

/** Whether `call` may run in `wave` once `leaving` (a call of that wave) has left it. */
function fits(layout: WaveLayout, call: number, wave: number, leaving: number): boolean {
  const { graph, waveOf } = layout;
  for (const other of graph.earlier[call]!) {
    if (other === leaving || waveOf[other]! >= wave) return false;
  }
  for (const other of graph.later[call]!) {
    if (other === leaving || waveOf[other]! <= wave) return false;
  }
  return true;
}
