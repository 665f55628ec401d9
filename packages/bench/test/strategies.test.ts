import 'reflect-metadata';
import { greedyPlanner, type PlanNode, sequentialPlanner } from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { benchContainer, STRATEGY } from '../src/index.js';
import { countConflictingOverlaps } from '../src/simulate/count-conflicting-overlaps.js';
import { simulateExecution } from '../src/simulate/simulate-execution.js';
import { allAtOnceStrategy } from '../src/strategies/all-at-once-strategy.js';
import { consecutiveReadOnlyStrategy } from '../src/strategies/consecutive-read-only-strategy.js';
import { eagerStrategy } from '../src/strategies/eager-strategy.js';
import { globalRwLockStrategy } from '../src/strategies/global-rw-lock-strategy.js';
import { plannerStrategy } from '../src/strategies/planner-strategy.js';
import { isReadOnly } from '../src/strategies/read-only.js';
import { resolveStrategies } from '../src/strategies/resolve-strategies.js';
import type { Strategy } from '../src/strategies/strategy.js';

const read = (index: number, key: string): PlanNode => ({
  index,
  parallelizable: true,
  access: [{ key, mode: 'read' }],
});
const write = (index: number, key: string): PlanNode => ({
  index,
  parallelizable: true,
  access: [{ key, mode: 'write' }],
});
const unsafe = (index: number): PlanNode => ({ index, parallelizable: false });

// R(a) R(b) W(c) R(d) R(e) U R(f): reads, an edit on its own file, a shell command.
const nodes = [
  read(0, 'fs:/a'),
  read(1, 'fs:/b'),
  write(2, 'fs:/c'),
  read(3, 'fs:/d'),
  read(4, 'fs:/e'),
  unsafe(5),
  read(6, 'fs:/f'),
];
const durationsMs = [10, 20, 30, 10, 40, 5, 10];
const arrivalMs = [10, 20, 30, 40, 50, 60, 70];

/** The schedule of a strategy on the case, as [start, end] per call. */
function schedule(strategy: Strategy, options: { streamed?: boolean; cap?: number } = {}) {
  const execution = strategy.execute({
    nodes,
    maxConcurrency: options.cap ?? 8,
    ...(options.streamed === true ? { arrivalMs } : {}),
  });
  const { startMs, endMs } = simulateExecution({ execution, durationsMs });
  return startMs.map((start, call) => [start, endMs[call]]);
}

describe('peer strategies, on a hand-written turn', () => {
  it('all-at-once (AI SDK, OpenAI Agents): every call at once, or on arrival', () => {
    expect(schedule(allAtOnceStrategy())).toEqual([
      [0, 10],
      [0, 20],
      [0, 30],
      [0, 10],
      [0, 40],
      [0, 5],
      [0, 10],
    ]);
    expect(schedule(allAtOnceStrategy(), { streamed: true })).toEqual([
      [10, 20],
      [20, 40],
      [30, 60],
      [40, 50],
      [50, 90],
      [60, 65],
      [70, 80],
    ]);
  });

  it('consecutive-read-only (Claude Code): runs of read-only calls together, the others alone, in order', () => {
    // [R a, R b] together; W c alone (an edit is not read-only); [R d, R e]; U; [R f].
    expect(schedule(consecutiveReadOnlyStrategy())).toEqual([
      [0, 10],
      [0, 20],
      [20, 50],
      [50, 60],
      [50, 90],
      [90, 95],
      [95, 105],
    ]);
    // Streamed: reads start on arrival; W c and U wait for the stream's end (70).
    expect(schedule(consecutiveReadOnlyStrategy(), { streamed: true })).toEqual([
      [10, 20],
      [20, 40],
      [70, 100],
      [100, 110],
      [100, 140],
      [140, 145],
      [145, 155],
    ]);
  });

  it('consecutive-read-only caps a run of read-only calls at 10', () => {
    const reads = Array.from({ length: 11 }, (_, i) => read(i, `fs:/r${i}`));
    const execution = consecutiveReadOnlyStrategy().execute({ nodes: reads, maxConcurrency: 8 });
    const { startMs } = simulateExecution({
      execution,
      durationsMs: reads.map((_, i) => (i === 3 ? 5 : 10)),
    });
    // Ten start at once (not the bench's 8); the eleventh when call 3 ends at 5.
    expect(startMs).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
  });

  it('global-rw-lock (Codex): read-only calls share the lock, the others hold it alone, FIFO', () => {
    // As a whole batch, the same order as Claude Code's partition, without a cap.
    expect(schedule(globalRwLockStrategy())).toEqual(schedule(consecutiveReadOnlyStrategy()));
    // Streamed, every call asks for the lock on arrival: W c waits for R a and R b only;
    // R d and R e queue behind W c; U behind everything; R f behind U.
    expect(schedule(globalRwLockStrategy(), { streamed: true })).toEqual([
      [10, 20],
      [20, 40],
      [40, 70],
      [70, 80],
      [70, 110],
      [110, 115],
      [115, 125],
    ]);
  });

  it('global-rw-lock-capped holds at most maxConcurrency calls at once', () => {
    const reads = Array.from({ length: 4 }, (_, i) => read(i, `fs:/r${i}`));
    const capped = globalRwLockStrategy({ capped: true });
    expect(capped.name).toBe('global-rw-lock-capped');
    const { startMs } = simulateExecution({
      execution: capped.execute({ nodes: reads, maxConcurrency: 2 }),
      durationsMs: [10, 10, 10, 10],
    });
    expect(startMs).toEqual([0, 0, 10, 10]);
  });

  it('eager: each call once the earlier calls it conflicts with have ended, under the cap', () => {
    // W c conflicts with nothing before it; U waits for every earlier call; R f waits for U.
    expect(schedule(eagerStrategy())).toEqual([
      [0, 10],
      [0, 20],
      [0, 30],
      [0, 10],
      [0, 40],
      [40, 45],
      [45, 55],
    ]);
    // Streamed: from arrival; U arrives at 60 but waits for R e (ends 90).
    expect(schedule(eagerStrategy(), { streamed: true })).toEqual([
      [10, 20],
      [20, 40],
      [30, 60],
      [40, 50],
      [50, 90],
      [90, 95],
      [95, 105],
    ]);
  });

  it('planners wait for the whole batch, then run their waves', () => {
    // Greedy: [0,1,2,3,4,6] (40 ms: R f crosses the shell command), then [5] (5 ms);
    // streamed, from the stream's end at 70.
    const greedy = plannerStrategy(greedyPlanner());
    expect(schedule(greedy).map(([, end]) => end)).toEqual([10, 20, 30, 10, 40, 45, 10]);
    expect(schedule(greedy, { streamed: true }).map(([start]) => start)).toEqual([
      70, 70, 70, 70, 70, 110, 70,
    ]);
    const sequential = plannerStrategy(sequentialPlanner());
    expect(schedule(sequential).map(([start]) => start)).toEqual([0, 10, 30, 60, 70, 110, 115]);
  });
});

describe('conflicting overlaps', () => {
  it('counts conflicting pairs that ran at the same time, and the write/write ones as lost updates', () => {
    const turn = [write(0, 'fs:/a'), write(1, 'fs:/a'), read(2, 'fs:/a'), unsafe(3)];
    const execution = allAtOnceStrategy().execute({ nodes: turn, maxConcurrency: 8 });
    const at = (durations: number[]) =>
      countConflictingOverlaps({
        nodes: turn,
        schedule: simulateExecution({ execution, durationsMs: durations }),
      });
    // W/W, W/R, W/R, and the unsafe call with each of the three.
    expect(at([10, 10, 10, 10])).toEqual({ pairs: 6, lostUpdates: 1 });
    const eager = eagerStrategy().execute({ nodes: turn, maxConcurrency: 8 });
    expect(
      countConflictingOverlaps({
        nodes: turn,
        schedule: simulateExecution({ execution: eager, durationsMs: [10, 10, 10, 10] }),
      }),
    ).toEqual({ pairs: 0, lostUpdates: 0 });
  });
});

describe('isReadOnly', () => {
  it('takes safe calls that declare only reads, or nothing', () => {
    expect(isReadOnly(read(0, 'fs:/a'))).toBe(true);
    expect(isReadOnly({ index: 0, parallelizable: true })).toBe(true);
    expect(isReadOnly(write(0, 'fs:/a'))).toBe(false);
    expect(isReadOnly({ index: 0, parallelizable: true, resourceKey: 'a' })).toBe(false);
    expect(isReadOnly(unsafe(0))).toBe(false);
  });
});

describe('the strategy container', () => {
  it('binds the planners, the clairvoyant optimal, eager and the peers; a user-bound strategy shows up', () => {
    const container = benchContainer();
    const mine: Strategy = {
      name: 'mine',
      description: 'Everything one by one, from the stream’s end.',
      execute: ({ nodes: turn }) => ({
        kind: 'dependencies',
        dependsOn: turn.map((_, i) => (i === 0 ? [] : [i - 1])),
        readyMs: turn.map(() => 0),
        maxConcurrency: 1,
      }),
    };
    container.bind(STRATEGY).toConstantValue(mine);
    const strategies = resolveStrategies(container);
    expect(strategies.map((strategy) => strategy.name)).toEqual([
      'greedy',
      'ordered',
      'sequential',
      'optimal',
      'optimal-clairvoyant',
      'eager',
      'all-at-once',
      'consecutive-read-only',
      'global-rw-lock',
      'global-rw-lock-capped',
      'mine',
    ]);
    expect(
      strategies.filter((strategy) => strategy.clairvoyant === true).map((s) => s.name),
    ).toEqual(['optimal-clairvoyant']);
  });

  it('refuses two strategies with one name, and a binding that is no strategy', () => {
    const twice = benchContainer();
    twice.bind(STRATEGY).toConstantValue(eagerStrategy());
    expect(() => resolveStrategies(twice)).toThrow(
      'Expected strategy names to be unique, got `eager` twice',
    );
    const odd = benchContainer();
    odd.bind(STRATEGY).toConstantValue({ name: 'half' } as unknown as Strategy);
    expect(() => resolveStrategies(odd)).toThrow(
      'Expected every binding of `STRATEGY` to have a `name` and an `execute` function, got `half`',
    );
  });
});
