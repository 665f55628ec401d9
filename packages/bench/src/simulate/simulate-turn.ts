import {
  makespan,
  type PlanNode,
  type Schedule,
  simulateEager,
  verifyPlan,
  verifySchedule,
} from '@toolwaves/planner';
import type { TurnResult } from '../report/bench-report.js';
import type { Execution } from '../strategies/strategy.js';
import { countConflictingOverlaps } from './count-conflicting-overlaps.js';

/** Options of {@link simulateTurn}. */
export interface SimulateTurnOptions {
  readonly strategy: string;
  /** What the strategy decided. */
  readonly execution: Execution;
  /** The turn's declarations with `estimateMs` = the sampled durations (the simulation's truth). */
  readonly actual: readonly PlanNode[];
  /** Streamed turns: when each call arrived (rules: no call starts before). */
  readonly arrivalMs?: readonly number[];
}

/**
 * Simulates one strategy's execution of one turn on the sampled durations, with the planner
 * package's two simulators and nothing else: a wave plan by `makespan` (from the execution's
 * start), everything else by `simulateEager` (the eager ready queue) on the declarations the
 * strategy acts on. Takes the figures: turn time, time after the stream's end, conflicting
 * pairs that ran at the same time (in one wave, for a plan) and lost updates among them, the
 * rules broken (`verifyPlan` for plans; `verifySchedule` on the real declarations, the cap and
 * the arrivals for the rest), and for plans the waves and the `proven` flag.
 *
 * @example simulateTurn({ strategy: 'greedy', execution, actual }).result.turnMs;
 */
export function simulateTurn(options: SimulateTurnOptions): {
  readonly result: TurnResult;
  readonly schedule?: Schedule;
} {
  const { execution, actual } = options;
  const streamEndMs = Math.max(0, ...(options.arrivalMs ?? []));
  const base = { strategy: options.strategy };
  if (execution.kind === 'waves') {
    const { plan } = execution;
    const turnMs =
      execution.startMs + makespan(actual, plan, { maxConcurrency: execution.maxConcurrency });
    const overlaps = wavePairs(actual, plan.waves);
    return {
      result: {
        ...base,
        turnMs,
        afterStreamMs: Math.max(0, turnMs - streamEndMs),
        conflictingOverlaps: overlaps.pairs,
        lostUpdates: overlaps.lostUpdates,
        waves: plan.waves.length,
        proven: typeof plan.proven === 'boolean' ? plan.proven : null,
        violations: verifyPlan(actual, plan).length,
      },
    };
  }
  const nodes = execution.nodes.map((node, call) => ({
    ...node,
    estimateMs: actual[call]!.estimateMs ?? 0,
  }));
  const schedule = simulateEager(nodes, {
    maxConcurrency: execution.maxConcurrency,
    ...(execution.arrivalMs === undefined ? {} : { arrivalMs: execution.arrivalMs }),
  });
  const turnMs = Math.max(0, ...schedule.endMs);
  const overlaps = countConflictingOverlaps({ nodes: actual, schedule });
  return {
    schedule,
    result: {
      ...base,
      turnMs,
      afterStreamMs: Math.max(0, turnMs - streamEndMs),
      conflictingOverlaps: overlaps.pairs,
      lostUpdates: overlaps.lostUpdates,
      waves: null,
      proven: null,
      violations: verifySchedule(actual, schedule, {
        maxConcurrency: execution.maxConcurrency,
        ...(options.arrivalMs === undefined ? {} : { arrivalMs: options.arrivalMs }),
      }).length,
    },
  };
}

/** Conflicting pairs a plan put in one wave (a valid plan has none). */
function wavePairs(
  actual: readonly PlanNode[],
  waves: readonly { readonly calls: readonly number[] }[],
): { pairs: number; lostUpdates: number } {
  let pairs = 0;
  let lostUpdates = 0;
  for (const { calls } of waves) {
    const together: Schedule = { startMs: calls.map(() => 0), endMs: calls.map(() => 1) };
    const found = countConflictingOverlaps({
      nodes: calls.map((call) => actual[call]!),
      schedule: together,
    });
    pairs += found.pairs;
    lostUpdates += found.lostUpdates;
  }
  return { pairs, lostUpdates };
}
