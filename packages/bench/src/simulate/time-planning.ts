import type { Plan, PlanNode, Planner, PlanOptions } from '@toolwaves/planner';

/** Options of {@link timePlanning}. */
export interface TimePlanningOptions {
  readonly planner: Planner;
  readonly nodes: readonly PlanNode[];
  readonly planOptions?: PlanOptions;
  /** A monotonic clock in ms (e.g. `performance.now`). */
  readonly clock: () => number;
  /** Each sample repeats the planning until this much time has passed (default 0: once). */
  readonly minMs?: number;
  /** Samples taken; the answer is their median (default 1). */
  readonly samples?: number;
  /** At most this many repetitions per sample (default 1000). */
  readonly maxRepeats?: number;
}

/**
 * Plans a batch and measures how long planning takes: one untimed warm-up run (its plan is
 * the one returned), then `samples` timed samples, each the mean of repetitions run until
 * `minMs` has passed (so fast planners get a precise figure); the answer is the median sample
 * (so a garbage collection in one sample does not count).
 *
 * @example
 * const { plan, ms } = timePlanning({ planner: greedyPlanner(), nodes, clock: () => performance.now(), minMs: 1 });
 */
export function timePlanning(options: TimePlanningOptions): { plan: Plan; ms: number } {
  const { planner, nodes, planOptions, clock } = options;
  const minMs = options.minMs ?? 0;
  const maxRepeats = options.maxRepeats ?? 1000;
  const plan = planner.plan(nodes, planOptions);
  const samples: number[] = [];
  for (let sample = 0; sample < (options.samples ?? 1); sample++) {
    let repeats = 0;
    const start = clock();
    let elapsed = 0;
    do {
      planner.plan(nodes, planOptions);
      repeats++;
      elapsed = clock() - start;
    } while (elapsed < minMs && repeats < maxRepeats);
    samples.push(elapsed / repeats);
  }
  samples.sort((a, b) => a - b);
  return { plan, ms: samples[Math.floor(samples.length / 2)]! };
}
