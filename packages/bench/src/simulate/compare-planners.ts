import {
  lowerBound,
  makespan,
  type Planner,
  type PlanOptions,
  verifyPlan,
} from '@toolwaves/planner';
import { BenchError } from '../bench-error.js';
import type { BatchFigures, BatchResult, WorkloadFigures } from '../report/bench-report.js';
import type { BenchWorkload } from '../workloads/bench-batch.js';
import { minimalWaveCount } from './minimal-wave-count.js';
import { summarizeWorkload } from './summarize-workload.js';
import { timePlanning } from './time-planning.js';

/** Options of {@link comparePlanners}. */
export interface ComparePlannersOptions {
  readonly workloads: readonly BenchWorkload[];
  /** The planners to compare (e.g. {@link resolvePlanners} of a container). */
  readonly planners: readonly Planner[];
  /** Cap inside a wave, for planning, `makespan` and `lowerBound` (default 8). */
  readonly maxConcurrency?: number;
  /** The planner the others are compared with (default `greedy`, when bound). */
  readonly reference?: string;
  /** A monotonic clock in ms for planning times (the bench passes `performance.now`). */
  readonly clock: () => number;
  /** Repeat fast plannings until this long, for precise times (default 0). */
  readonly minTimingMs?: number;
  /** Told after each batch: batches done, batches in all. */
  readonly onBatch?: (done: number, total: number) => void;
}

/**
 * Plans every batch of every workload with every planner and takes the figures: waves,
 * simulated makespan (`makespan`), the batch's `lowerBound`, planning time, whether the plan is
 * proven optimal, rule violations (`verifyPlan`), and for seed-model batches the minimal wave
 * count ({@link minimalWaveCount}). Effects are limited to the injected clock.
 *
 * @throws {BenchError} `planner_failed` naming the planner and the batch when a planner throws.
 * @example
 * const figures = comparePlanners({ workloads, planners: resolvePlanners(container), clock: () => performance.now() });
 * @see summarizeWorkload
 */
export function comparePlanners(options: ComparePlannersOptions): WorkloadFigures[] {
  const planOptions: PlanOptions =
    options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency };
  const reference =
    options.reference ??
    (options.planners.some((planner) => planner.name === 'greedy') ? 'greedy' : undefined);
  const total = options.workloads.reduce((sum, workload) => sum + workload.batches.length, 0);
  let done = 0;
  return options.workloads.map((workload) => {
    const perBatch = workload.batches.map((batch, position): BatchFigures => {
      const { nodes } = batch;
      // Timed in an order that rotates from batch to batch, so no planner is always timed first.
      const count = options.planners.length;
      const timed = options.planners.map((_, turn): BatchResult => {
        const planner = options.planners[(turn + position) % count]!;
        try {
          const { plan, ms } = timePlanning({
            planner,
            nodes,
            planOptions,
            clock: options.clock,
            minMs: options.minTimingMs ?? 0,
          });
          return {
            planner: planner.name,
            waves: plan.waves.length,
            makespanMs: makespan(nodes, plan, planOptions),
            planMs: ms,
            proven: typeof plan.proven === 'boolean' ? plan.proven : null,
            violations: verifyPlan(nodes, plan).length,
          };
        } catch (error) {
          throw new BenchError({
            code: 'planner_failed',
            message: `Planner \`${planner.name}\` failed on batch ${position} of workload \`${workload.name}\` (${nodes.length} calls): ${error instanceof Error ? error.message : String(error)}`,
            cause: error,
          });
        }
      });
      const results = options.planners.map(
        (planner) => timed.find((result) => result.planner === planner.name)!,
      );
      options.onBatch?.(++done, total);
      return {
        size: batch.size,
        lowerBoundMs: lowerBound(nodes, planOptions),
        minimalWaves: workload.kind === 'seed-model' ? minimalWaveCount(nodes) : null,
        results,
      };
    });
    return summarizeWorkload({
      workload,
      perBatch,
      planners: options.planners.map((planner) => planner.name),
      ...(reference === undefined ? {} : { reference }),
    });
  });
}
