import { lowerBound } from '@toolwaves/planner';
import { healthEstimates } from '../simulate/health-estimates.js';
import { runTurn } from '../simulate/run-turn.js';
import { withEstimates } from '../simulate/with-estimates.js';
import type { Strategy } from '../strategies/strategy.js';
import type { BenchWorkload } from '../workloads/bench-batch.js';
import type { GanttBar, GanttFigures } from './bench-report.js';
import { callLabel } from './call-label.js';
import type { GanttChoice } from './pick-gantt-batch.js';

/** Options of {@link ganttFigures}. */
export interface GanttFiguresOptions {
  /** The workloads of one seed. */
  readonly workloads: readonly BenchWorkload[];
  readonly choice: GanttChoice;
  readonly strategies: readonly Strategy[];
  readonly maxConcurrency?: number;
}

/**
 * The schedule of the chosen batch (as a whole batch) under each strategy, as the comparison
 * simulates it (estimates from the health record, sampled durations), with a slot per bar and
 * a label per call, for the report's Gantt chart.
 *
 * @example ganttFigures({ workloads, choice: pickGanttBatch({ workloads: figures })!, strategies });
 * @see pickGanttBatch
 */
export function ganttFigures(options: GanttFiguresOptions): GanttFigures {
  const { choice } = options;
  const maxConcurrency = options.maxConcurrency ?? 8;
  const workload = options.workloads.find((candidate) => candidate.name === choice.workload);
  const batch = workload?.batches[choice.batch];
  if (workload === undefined || batch === undefined) {
    throw new RangeError(`No batch ${choice.batch} in workload \`${choice.workload}\``);
  }
  const estimates = healthEstimates({ workload })[choice.batch]!;
  const estimated = withEstimates(batch.nodes, estimates);
  const actual = withEstimates(batch.nodes, batch.durationsMs);
  return {
    workload: choice.workload,
    batch: choice.batch,
    size: batch.size,
    lowerBoundMs: lowerBound(actual, { maxConcurrency }),
    why: choice.why,
    planners: options.strategies.map((strategy) => {
      const execution = strategy.execute({
        nodes: strategy.clairvoyant === true ? actual : estimated,
        maxConcurrency,
      });
      const { result, schedule } = runTurn({
        strategy: strategy.name,
        execution,
        actual,
        streamEndMs: 0,
      });
      const waveOf = new Map<number, number>();
      if (execution.kind === 'waves') {
        execution.plan.waves.forEach((wave, w) => {
          for (const call of wave.calls) waveOf.set(call, w);
        });
      }
      const order = actual
        .map((_, call) => call)
        .sort((a, b) => schedule.startMs[a]! - schedule.startMs[b]! || a - b);
      const laneEnds: number[] = [];
      const bars: GanttBar[] = [];
      for (const call of order) {
        const startMs = schedule.startMs[call]!;
        let lane = laneEnds.findIndex((end) => end <= startMs + 1e-9);
        if (lane === -1) lane = laneEnds.length;
        laneEnds[lane] = schedule.endMs[call]!;
        bars.push({
          call,
          wave: waveOf.get(call) ?? 0,
          lane,
          startMs,
          endMs: schedule.endMs[call]!,
          label: callLabel({ node: actual[call]!, call: batch.calls?.[call] }),
        });
      }
      bars.sort((a, b) => a.wave - b.wave || a.startMs - b.startMs || a.call - b.call);
      return {
        planner: strategy.name,
        makespanMs: result.turnMs,
        waves: result.waves ?? 0,
        bars,
      };
    }),
  };
}
