import { blockCost } from './block-cost.js';
import type { WaveLayout } from './wave-layout.js';

/**
 * Splits waves whose list schedule misfires: for a wave with more calls than slots, moves its
 * calls one at a time into a new wave right after it — each time the call whose move leaves
 * the two waves shortest, even if that is longer for now — and keeps the best split seen if it
 * beats the wave whole. Moving one call alone rarely pays (the new wave costs that call's whole
 * duration), which is why single-call local search cannot find these splits. A call of the
 * wave may always move to a wave right after it: its earlier conflicting calls run before the
 * wave, its later ones after. Mutates `layout`; returns whether it changed. Stops early once
 * the deadline (a `performance.now()` value) passes. Internal to the package.
 *
 * @example
 * // 2 slots, durations 2, 2, 1, 1, 2 in one wave: 5; split as [2, 1, 1] then [2, 2]: 4.
 * splitWaves(layout, deadline); // true
 * @see improveLayout
 */
export function splitWaves(layout: WaveLayout, deadline: number): boolean {
  const { durations } = layout.graph;
  const { slots } = layout;
  const tolerance = 1e-9 * Math.max(1, layout.total());
  let changed = false;
  for (let wave = 0; wave < layout.blocks.length; wave++) {
    if (layout.blocks[wave]!.length <= slots) continue;
    if (performance.now() > deadline) break;
    const stay = [...layout.blocks[wave]!];
    const moved: number[] = [];
    const whole = layout.costs[wave]!;
    let bestTotal = whole;
    let bestCount = 0;
    const order: number[] = [];
    while (stay.length > 1) {
      let pick = -1;
      let pickTotal = Number.POSITIVE_INFINITY;
      for (let i = 0; i < stay.length; i++) {
        const rest = stay.filter((_, j) => j !== i);
        const joined = insertSorted(moved, stay[i]!);
        const total = blockCost(rest, durations, slots) + blockCost(joined, durations, slots);
        if (total < pickTotal) {
          pick = i;
          pickTotal = total;
        }
      }
      const call = stay.splice(pick, 1)[0]!;
      moved.splice(0, moved.length, ...insertSorted(moved, call));
      order.push(call);
      if (pickTotal < bestTotal - tolerance) {
        bestTotal = pickTotal;
        bestCount = order.length;
      }
    }
    if (bestCount === 0) continue;
    for (let i = 0; i < bestCount; i++) {
      const call = order[i]!;
      layout.remove(call);
      if (i === 0) layout.insertWave(wave + 1, call);
      else layout.add(wave + 1, call);
    }
    changed = true;
    wave++; // the new wave holds at most what the split left it
  }
  return changed;
}

function insertSorted(block: readonly number[], position: number): number[] {
  let at = block.length;
  while (at > 0 && block[at - 1]! > position) at--;
  return [...block.slice(0, at), position, ...block.slice(at)];
}
