import { listSchedule } from './list-schedule.js';
import type { WaveLayout } from './wave-layout.js';
import type { WorkBudget } from './work-budget.js';

/**
 * Splits waves whose list schedule misfires: for a wave with more calls than slots, moves its
 * calls one at a time into a new wave right after it — each time the call whose move leaves
 * the two waves shortest, even if that is longer for now — and keeps the best split seen if it
 * beats the wave whole. Moving one call alone rarely pays (the new wave costs that call's whole
 * duration), which is why single-call local search cannot find these splits. A call of the
 * wave may always move to a wave right after it: its earlier conflicting calls run before the
 * wave, its later ones after. Mutates `layout`; returns whether it changed. Stops early once
 * the budget runs out (a step per candidate call weighed). Internal to the package.
 *
 * @example
 * // 2 slots, durations 2, 2, 1, 1, 2 in one wave: 5; split as [2, 1, 1] then [2, 2]: 4.
 * splitWaves(layout, budget); // true
 * @see improveLayout
 */
export function splitWaves(layout: WaveLayout, budget: WorkBudget): boolean {
  const { durations } = layout.graph;
  const { slots } = layout;
  const tolerance = 1e-9 * Math.max(1, layout.total());
  const scratch: number[] = [];
  let changed = false;
  for (let wave = 0; wave < layout.blocks.length; wave++) {
    if (layout.blocks[wave]!.length <= slots) continue;
    if (budget.exhausted) break;
    const stay = [...layout.blocks[wave]!];
    const moved: number[] = [];
    const whole = layout.costs[wave]!;
    let bestTotal = whole;
    let bestCount = 0;
    const order: number[] = [];
    while (stay.length > 1 && !budget.exhausted) {
      let pick = -1;
      let pickTotal = Number.POSITIVE_INFINITY;
      for (let i = 0; i < stay.length; i++) {
        if (!budget.take()) break;
        const total =
          schedule(stay, -1, stay[i]!, durations, slots, scratch) +
          schedule(moved, stay[i]!, -1, durations, slots, scratch);
        if (total < pickTotal) {
          pick = i;
          pickTotal = total;
        }
      }
      const call = stay.splice(pick, 1)[0]!;
      let at = moved.length;
      while (at > 0 && moved[at - 1]! > call) at--;
      moved.splice(at, 0, call);
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

/** The list schedule of `calls` (ascending) with `plus` added and `minus` left out (-1: none). */
function schedule(
  calls: readonly number[],
  plus: number,
  minus: number,
  durations: readonly number[],
  slots: number,
  scratch: number[],
): number {
  scratch.length = 0;
  let pending = plus;
  for (const call of calls) {
    if (pending !== -1 && pending < call) {
      scratch.push(durations[pending]!);
      pending = -1;
    }
    if (call !== minus) scratch.push(durations[call]!);
  }
  if (pending !== -1) scratch.push(durations[pending]!);
  return listSchedule(scratch, slots);
}
