import type { Plan, PlanNode, Planner, PlanOptions } from '@toolwaves/planner';
import type { ScalingPoint } from '../report/bench-report.js';

/** A plan and its planning time: an untimed run, then the median of timed samples. */
export function timePlanning(options: {
  readonly planner: Planner;
  readonly nodes: readonly PlanNode[];
  readonly planOptions?: PlanOptions;
  readonly clock: () => number;
  readonly minMs?: number;
  readonly samples?: number;
}): { plan: Plan; ms: number } {
  const { planner, nodes, planOptions, clock } = options;
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
    } while (elapsed < (options.minMs ?? 0) && repeats < 1000);
    samples.push(elapsed / repeats);
  }
  samples.sort((a, b) => a - b);
  return { plan, ms: samples[Math.floor(samples.length / 2)]! };
}

/** Planning time per planner and size; one over `capMs` is skipped at larger sizes. */
export function measureScaling(options: {
  readonly planners: readonly Planner[];
  readonly sizes: readonly number[];
  /** The batch of a size, shared by the planners. */
  readonly nodesFor: (size: number) => readonly PlanNode[];
  readonly maxConcurrency?: number;
  readonly clock: () => number;
  readonly capMs?: number;
  readonly minTimingMs?: number;
  readonly onSize?: (size: number, done: number, total: number) => void;
}): ScalingPoint[] {
  const capMs = options.capMs ?? 2000;
  const planOptions: PlanOptions =
    options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency };
  const overCap = new Map<string, string>();
  const points: ScalingPoint[] = [];
  options.sizes.forEach((size, position) => {
    const nodes = options.nodesFor(size);
    for (const planner of options.planners) {
      const skipped = overCap.get(planner.name);
      if (skipped !== undefined) {
        points.push({ planner: planner.name, size, planMs: null, waves: null, skipped });
        continue;
      }
      const { plan, ms } = timePlanning({
        planner,
        nodes,
        planOptions,
        clock: options.clock,
        minMs: options.minTimingMs ?? 0,
        samples: 3,
      });
      points.push({ planner: planner.name, size, planMs: ms, waves: plan.waves.length });
      if (ms > capMs) {
        overCap.set(planner.name, `took ${ms.toFixed(0)} ms at ${size} calls (cap ${capMs} ms)`);
      }
    }
    options.onSize?.(size, position + 1, options.sizes.length);
  });
  return points;
}
