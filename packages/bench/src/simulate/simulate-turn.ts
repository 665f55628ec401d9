import {
  accessesOf,
  conflicts,
  keysOverlap,
  makespan,
  type PlanNode,
  type Schedule,
  simulateEager,
  verifyPlan,
  verifySchedule,
} from '@toolwaves/planner';
import { BenchError } from '../bench-error.js';
import type { TurnResult } from '../report/bench-report.js';
import type { Execution, Strategy, TurnView } from '../strategies/strategy.js';

/** Conflicting pairs that ran at once, and the lost updates (both write a key). */
export function countConflictingOverlaps(options: {
  readonly nodes: readonly PlanNode[];
  readonly schedule: Schedule;
}): { pairs: number; lostUpdates: number } {
  const { nodes, schedule } = options;
  const writes = (node: PlanNode) => accessesOf(node).filter((access) => access.mode === 'write');
  let pairs = 0;
  let lostUpdates = 0;
  for (let a = 0; a < nodes.length; a++) {
    for (let b = a + 1; b < nodes.length; b++) {
      const overlap =
        schedule.startMs[a]! < schedule.endMs[b]! && schedule.startMs[b]! < schedule.endMs[a]!;
      if (!overlap || !conflicts(nodes[a]!, nodes[b]!)) continue;
      pairs++;
      if (writes(nodes[a]!).some((x) => writes(nodes[b]!).some((y) => keysOverlap(x.key, y.key))))
        lostUpdates++;
    }
  }
  return { pairs, lostUpdates };
}

/** A strategy's execution on the durations: `makespan` (waves) or `simulateEager`. */
export function simulateTurn(options: {
  readonly strategy: string;
  readonly execution: Execution;
  readonly actual: readonly PlanNode[];
  readonly arrivalMs?: readonly number[];
}): { readonly result: TurnResult; readonly schedule?: Schedule } {
  const { execution, actual } = options;
  const streamEndMs = Math.max(0, ...(options.arrivalMs ?? []));
  const figures = (turnMs: number, overlaps: { pairs: number; lostUpdates: number }) => ({
    strategy: options.strategy,
    turnMs,
    afterStreamMs: Math.max(0, turnMs - streamEndMs),
    conflictingOverlaps: overlaps.pairs,
    lostUpdates: overlaps.lostUpdates,
  });
  if (execution.kind === 'waves') {
    const { plan } = execution;
    const turnMs =
      execution.startMs + makespan(actual, plan, { maxConcurrency: execution.maxConcurrency });
    // A plan's calls overlap exactly when they share a wave.
    const [startMs, endMs] = [actual.map(() => 0), actual.map(() => 0)];
    plan.waves.forEach(({ calls }, wave) => {
      for (const call of calls) [startMs[call], endMs[call]] = [wave, wave + 1];
    });
    return {
      result: {
        ...figures(
          turnMs,
          countConflictingOverlaps({ nodes: actual, schedule: { startMs, endMs } }),
        ),
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
  const arrivals = execution.arrivalMs === undefined ? {} : { arrivalMs: execution.arrivalMs };
  const schedule = simulateEager(nodes, { maxConcurrency: execution.maxConcurrency, ...arrivals });
  return {
    schedule,
    result: {
      ...figures(
        Math.max(0, ...schedule.endMs),
        countConflictingOverlaps({ nodes: actual, schedule }),
      ),
      waves: null,
      proven: null,
      violations: verifySchedule(actual, schedule, {
        maxConcurrency: execution.maxConcurrency,
        ...(options.arrivalMs === undefined ? {} : { arrivalMs: options.arrivalMs }),
      }).length,
    },
  };
}

/** Every strategy on one turn, batch and streamed, each deciding on what it may see. */
export function playTurn(options: {
  readonly strategies: readonly Strategy[];
  readonly estimated: readonly PlanNode[];
  readonly actual: readonly PlanNode[];
  readonly arrivalMs: readonly number[];
  readonly maxConcurrency: number;
  readonly where: string;
}): { batch: TurnResult[]; stream: TurnResult[] } {
  const { actual } = options;
  const run = (streamed: boolean) =>
    options.strategies.map((strategy) => {
      const arrivals = streamed ? { arrivalMs: options.arrivalMs } : {};
      const view: TurnView = {
        nodes: strategy.clairvoyant === true ? actual : options.estimated,
        maxConcurrency: options.maxConcurrency,
        ...arrivals,
      };
      let execution: Execution;
      try {
        execution = strategy.execute(view);
      } catch (error) {
        throw new BenchError({
          code: 'strategy_failed',
          message: `Strategy \`${strategy.name}\` failed on ${options.where}: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        });
      }
      return simulateTurn({ strategy: strategy.name, execution, actual, ...arrivals }).result;
    });
  return { batch: run(false), stream: run(true) };
}
