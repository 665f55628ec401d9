import type { PlanNode, Planner, PlanOptions } from '@toolwaves/planner';
import type { ScalingPoint } from '../report/bench-report.js';
import { timePlanning } from './time-planning.js';

/** Options of {@link measureScaling}. */
export interface MeasureScalingOptions {
  readonly planners: readonly Planner[];
  /** Batch sizes, ascending. */
  readonly sizes: readonly number[];
  /** The batch of a given size (generated once per size, shared by the planners). */
  readonly nodesFor: (size: number) => readonly PlanNode[];
  readonly maxConcurrency?: number;
  /** A monotonic clock in ms. */
  readonly clock: () => number;
  /** A planner that needs longer than this on one batch is not run on larger ones (default 2000). */
  readonly capMs?: number;
  /** Repeat fast plannings until this long (default 0). */
  readonly minTimingMs?: number;
  /** Timed samples per planner and size, the median counts (default 3). */
  readonly samples?: number;
  /** Told after each size. */
  readonly onSize?: (size: number, done: number, total: number) => void;
}

/**
 * Planning time of every planner from small batches to huge ones. A planner over `capMs` at
 * one size is skipped at the larger ones (e.g. an exact planner whose budget does not scale),
 * with the reason in the point.
 *
 * @example
 * measureScaling({ planners, sizes: [10, 100, 1000], nodesFor, clock: () => performance.now() });
 * @see timePlanning
 */
export function measureScaling(options: MeasureScalingOptions): ScalingPoint[] {
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
        samples: options.samples ?? 3,
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
