import {
  estimateOf,
  type Plan,
  type PlanNode,
  type PlanOptions,
  resolveMaxConcurrency,
} from '@toolwaves/planner';

/** When one call runs in a simulated schedule. */
export interface ScheduledCall {
  /** The call (position in model order). */
  readonly call: number;
  /** Its wave, from 0. */
  readonly wave: number;
  /** The slot it runs in, from 0 (at most `maxConcurrency` slots). */
  readonly lane: number;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * Every call's start and end under a plan, the way the planner's `makespan` simulates it:
 * waves one after another; inside a wave the calls start in ascending order, each on the slot
 * that frees first (lowest slot on ties), at most `maxConcurrency` (default 8) at a time.
 * The latest `endMs` equals `makespan(nodes, plan, options)`. For Gantt charts.
 *
 * @example
 * simulateSchedule(nodes, greedyPlanner().plan(nodes), { maxConcurrency: 4 });
 * @see makespan
 */
export function simulateSchedule(
  nodes: readonly PlanNode[],
  plan: Plan,
  options?: PlanOptions,
): ScheduledCall[] {
  const slots = resolveMaxConcurrency(options);
  const scheduled: ScheduledCall[] = [];
  let waveStart = 0;
  plan.waves.forEach((wave, w) => {
    // Times relative to the wave's start, so the sum of wave lengths matches `makespan` exactly.
    const free = new Array<number>(Math.min(slots, wave.calls.length)).fill(0);
    let length = 0;
    for (const call of wave.calls) {
      let lane = 0;
      for (let l = 1; l < free.length; l++) if (free[l]! < free[lane]!) lane = l;
      const start = free[lane]!;
      const end = start + estimateOf(nodes[call]!);
      free[lane] = end;
      if (end > length) length = end;
      scheduled.push({ call, wave: w, lane, startMs: waveStart + start, endMs: waveStart + end });
    }
    waveStart += length;
  });
  return scheduled;
}
