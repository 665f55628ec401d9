import { type PlanNode, verifyPlan, verifySchedule } from '@toolwaves/planner';
import type { TurnResult } from '../report/bench-report.js';
import type { Execution } from '../strategies/strategy.js';
import { countConflictingOverlaps } from './count-conflicting-overlaps.js';
import { simulateExecution, type TurnSchedule } from './simulate-execution.js';

/** Options of {@link runTurn}. */
export interface RunTurnOptions {
  readonly strategy: string;
  /** What the strategy decided. */
  readonly execution: Execution;
  /** The turn's declarations with `estimateMs` = the sampled durations (the simulation's truth). */
  readonly actual: readonly PlanNode[];
  /** When the model stopped writing (0 for a whole batch). */
  readonly streamEndMs: number;
  /** Streamed turns: when each call arrived. */
  readonly arrivalMs?: readonly number[];
}

/**
 * Simulates one strategy's execution of one turn on the sampled durations and takes its
 * figures: turn time, time after the stream's end, conflicting overlaps and lost updates, the
 * rules broken — by the plan (`verifyPlan`, rules 1–4) for wave plans, by the schedule
 * (`verifySchedule`: rules 1–5, the strategy's cap, arrivals) for the others — and
 * for wave plans the waves and the `proven` flag.
 *
 * @example runTurn({ strategy: 'greedy', execution, actual, streamEndMs: 0 }).result.turnMs;
 */
export function runTurn(options: RunTurnOptions): { result: TurnResult; schedule: TurnSchedule } {
  const { execution, actual } = options;
  const durationsMs = actual.map((node) => node.estimateMs ?? 0);
  const schedule = simulateExecution({ execution, durationsMs });
  let turnMs = 0;
  for (const end of schedule.endMs) if (end > turnMs) turnMs = end;
  const overlaps = countConflictingOverlaps({ nodes: actual, schedule });
  const plan = execution.kind === 'waves' ? execution.plan : undefined;
  return {
    schedule,
    result: {
      strategy: options.strategy,
      turnMs,
      afterStreamMs: Math.max(0, turnMs - options.streamEndMs),
      conflictingOverlaps: overlaps.pairs,
      lostUpdates: overlaps.lostUpdates,
      waves: plan === undefined ? null : plan.waves.length,
      proven: typeof plan?.proven === 'boolean' ? plan.proven : null,
      violations:
        plan === undefined
          ? verifySchedule(actual, schedule, {
              maxConcurrency: Number.isFinite(execution.maxConcurrency)
                ? execution.maxConcurrency
                : Math.max(1, actual.length),
              ...(options.arrivalMs === undefined ? {} : { arrivalMs: options.arrivalMs }),
            }).length
          : verifyPlan(actual, plan).length,
    },
  };
}
