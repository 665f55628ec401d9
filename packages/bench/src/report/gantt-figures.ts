import type { Planner, PlanOptions } from '@toolwaves/planner';
import { lowerBound, makespan } from '@toolwaves/planner';
import { simulateSchedule } from '../simulate/simulate-schedule.js';
import type { BenchWorkload } from '../workloads/bench-batch.js';
import type { GanttFigures } from './bench-report.js';
import { callLabel } from './call-label.js';
import type { GanttChoice } from './pick-gantt-batch.js';

/** Options of {@link ganttFigures}. */
export interface GanttFiguresOptions {
  readonly workloads: readonly BenchWorkload[];
  readonly choice: GanttChoice;
  readonly planners: readonly Planner[];
  readonly maxConcurrency?: number;
}

/**
 * The schedule of the chosen batch under each planner ({@link simulateSchedule}), with a label
 * per call, for the report's Gantt chart.
 *
 * @example ganttFigures({ workloads, choice: pickGanttBatch({ workloads: figures })!, planners });
 * @see pickGanttBatch
 */
export function ganttFigures(options: GanttFiguresOptions): GanttFigures {
  const { choice } = options;
  const workload = options.workloads.find((candidate) => candidate.name === choice.workload);
  const batch = workload?.batches[choice.batch];
  if (batch === undefined) {
    throw new RangeError(`No batch ${choice.batch} in workload \`${choice.workload}\``);
  }
  const planOptions: PlanOptions =
    options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency };
  const { nodes, calls } = batch;
  return {
    workload: choice.workload,
    batch: choice.batch,
    size: batch.size,
    lowerBoundMs: lowerBound(nodes, planOptions),
    why: choice.why,
    planners: options.planners.map((planner) => {
      const plan = planner.plan(nodes, planOptions);
      return {
        planner: planner.name,
        makespanMs: makespan(nodes, plan, planOptions),
        waves: plan.waves.length,
        bars: simulateSchedule(nodes, plan, planOptions).map((scheduled) => ({
          ...scheduled,
          label: callLabel({ node: nodes[scheduled.call]!, call: calls?.[scheduled.call] }),
        })),
      };
    }),
  };
}
