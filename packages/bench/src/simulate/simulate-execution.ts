import { type Schedule, simulateEager } from '@toolwaves/planner';
import type {
  DependenciesExecution,
  EagerExecution,
  Execution,
  WavesExecution,
} from '../strategies/strategy.js';

/** When each call of a turn runs: `startMs[i]` and `endMs[i]` are call `i`'s, in ms. */
export type TurnSchedule = Schedule;

/**
 * Runs an {@link Execution} on the sampled durations (pure): the only place the bench puts a
 * strategy's rules and the real durations together.
 * - waves: one after another from `startMs`; inside a wave the calls start in ascending order,
 *   each on the slot that frees first, at most `maxConcurrency` at once (the planner's
 *   `makespan`);
 * - dependencies: at every moment, the ready calls (arrived, dependencies ended) start lowest
 *   index first while a slot is free;
 * - eager: the planner's `simulateEager`, the calls' estimates replaced by the durations.
 *
 * @throws {RangeError} when a dependency points at a later call (no schedule exists).
 * @example simulateExecution({ execution, durationsMs: batch.durationsMs }).endMs;
 */
export function simulateExecution(options: {
  readonly execution: Execution;
  readonly durationsMs: readonly number[];
}): TurnSchedule {
  const { execution, durationsMs } = options;
  switch (execution.kind) {
    case 'waves':
      return simulateWaves(execution, durationsMs);
    case 'dependencies':
      return simulateDependencies(execution, durationsMs);
    case 'eager':
      return simulateEagerly(execution, durationsMs);
  }
}

function simulateEagerly(execution: EagerExecution, durationsMs: readonly number[]): TurnSchedule {
  const nodes = execution.nodes.map((node, call) => ({ ...node, estimateMs: durationsMs[call]! }));
  return simulateEager(nodes, {
    maxConcurrency: execution.maxConcurrency,
    ...(execution.arrivalMs === undefined ? {} : { arrivalMs: execution.arrivalMs }),
  });
}

function simulateWaves(execution: WavesExecution, durationsMs: readonly number[]): TurnSchedule {
  const startMs = new Array<number>(durationsMs.length).fill(0);
  const endMs = new Array<number>(durationsMs.length).fill(0);
  let waveStart = execution.startMs;
  for (const wave of execution.plan.waves) {
    // Times relative to the wave's start, so wave lengths add up as in `makespan`.
    const free = new Array<number>(Math.min(execution.maxConcurrency, wave.calls.length)).fill(0);
    let length = 0;
    for (const call of wave.calls) {
      let lane = 0;
      for (let l = 1; l < free.length; l++) if (free[l]! < free[lane]!) lane = l;
      const start = free[lane]!;
      const end = start + durationsMs[call]!;
      free[lane] = end;
      if (end > length) length = end;
      startMs[call] = waveStart + start;
      endMs[call] = waveStart + end;
    }
    waveStart += length;
  }
  return { startMs, endMs };
}

function simulateDependencies(
  execution: DependenciesExecution,
  durationsMs: readonly number[],
): TurnSchedule {
  const count = durationsMs.length;
  const startMs = new Array<number>(count).fill(Number.NaN);
  const endMs = new Array<number>(count).fill(Number.NaN);
  execution.dependsOn.forEach((before, call) => {
    for (const earlier of before) {
      if (!(earlier >= 0 && earlier < call)) {
        throw new RangeError(`Call ${call} depends on call ${earlier}, which is not earlier`);
      }
    }
  });
  const running: number[] = [];
  let started = 0;
  let now = 0;
  while (started < count) {
    for (let i = running.length - 1; i >= 0; i--) {
      if (endMs[running[i]!]! <= now) running.splice(i, 1);
    }
    // Start every ready call, lowest index first, while a slot is free.
    for (let call = 0; call < count && running.length < execution.maxConcurrency; call++) {
      if (!Number.isNaN(startMs[call]!) || execution.readyMs[call]! > now) continue;
      if (!execution.dependsOn[call]!.every((earlier) => endMs[earlier]! <= now)) continue;
      startMs[call] = now;
      endMs[call] = now + durationsMs[call]!;
      running.push(call);
      started++;
    }
    // Advance to the next event: a running call ends, or a waiting call becomes ready.
    let next = Number.POSITIVE_INFINITY;
    for (const call of running) next = Math.min(next, endMs[call]!);
    for (let call = 0; call < count; call++) {
      const ready = execution.readyMs[call]!;
      if (Number.isNaN(startMs[call]!) && ready > now) next = Math.min(next, ready);
    }
    if (started < count && next === Number.POSITIVE_INFINITY) {
      throw new RangeError('No call can start: the dependencies wait for calls that never run');
    }
    now = next;
  }
  return { startMs, endMs };
}
