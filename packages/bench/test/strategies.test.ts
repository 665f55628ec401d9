import { greedyPlanner, type PlanNode, sequentialPlanner } from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { defaultStrategies, plannerStrategy, runBench, type Strategy } from '../src/index.js';
import { countConflictingOverlaps, simulateTurn } from '../src/simulate/simulate-turn.js';
import { eagerStrategy } from '../src/strategies/default-strategies.js';
import {
  allAtOnceStrategy,
  consecutiveReadOnlyStrategy,
  globalRwLockStrategy,
  isReadOnly,
  waitThenAllAtOnceStrategy,
} from '../src/strategies/peer-strategies.js';

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

/** The turn simulated for a strategy, the durations as the truth. */
function simulate(
  strategy: Strategy,
  options: { streamed?: boolean; cap?: number; turn?: PlanNode[]; durations?: number[] } = {},
) {
  const turn = options.turn ?? nodes;
  const durations = options.durations ?? durationsMs;
  const arrivals = options.streamed === true ? arrivalMs : undefined;
  const execution = strategy.execute({
    nodes: turn,
    maxConcurrency: options.cap ?? 8,
    ...(arrivals === undefined ? {} : { arrivalMs: arrivals }),
  });
  return simulateTurn({
    strategy: strategy.name,
    execution,
    actual: turn.map((node, call) => ({ ...node, estimateMs: durations[call]! })),
    ...(arrivals === undefined ? {} : { arrivalMs: arrivals }),
  });
}

/** The schedule of a strategy on the case, as [start, end] per call. */
function schedule(strategy: Strategy, options: { streamed?: boolean; cap?: number } = {}) {
  const { startMs, endMs } = simulate(strategy, options).schedule!;
  return startMs.map((start, call) => [start, endMs[call]]);
}

describe('peer strategies, on a hand-written turn', () => {
  it('all-at-once (AI SDK ≤ 6 streamText, OpenAI Agents without a cap): every call at once, or on arrival', () => {
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

  it('wait-then-all-at-once (AI SDK 7, LangGraph ToolNode): every call at once after the stream', () => {
    expect(schedule(waitThenAllAtOnceStrategy())).toEqual(schedule(allAtOnceStrategy()));
    // The stream ends at 70: every call starts then, none earlier.
    expect(schedule(waitThenAllAtOnceStrategy(), { streamed: true })).toEqual([
      [70, 80],
      [70, 90],
      [70, 100],
      [70, 80],
      [70, 110],
      [70, 75],
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
    const { startMs } = simulate(consecutiveReadOnlyStrategy(), {
      turn: reads,
      durations: reads.map((_, i) => (i === 3 ? 5 : 10)),
    }).schedule!;
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
    const { startMs } = simulate(capped, { turn: reads, durations: [10, 10, 10, 10], cap: 2 })
      .schedule!;
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
    const greedy = simulate(plannerStrategy(greedyPlanner())).result;
    expect([greedy.turnMs, greedy.waves]).toEqual([45, 2]);
    const streamed = simulate(plannerStrategy(greedyPlanner()), { streamed: true }).result;
    expect([streamed.turnMs, streamed.afterStreamMs]).toEqual([115, 45]);
    // Sequential: 10 + 20 + 30 + 10 + 40 + 5 + 10.
    expect(simulate(plannerStrategy(sequentialPlanner())).result.turnMs).toBe(125);
  });
});

describe('conflicting overlaps', () => {
  it('counts conflicting pairs that ran at the same time, and the write/write ones as lost updates', () => {
    const turn = [write(0, 'fs:/a'), write(1, 'fs:/a'), read(2, 'fs:/a'), unsafe(3)];
    const at = (strategy: Strategy) => {
      const { result } = simulate(strategy, { turn, durations: [10, 10, 10, 10] });
      return { pairs: result.conflictingOverlaps, lostUpdates: result.lostUpdates };
    };
    // W/W, W/R, W/R, and the unsafe call with each of the three.
    expect(at(allAtOnceStrategy())).toEqual({ pairs: 6, lostUpdates: 1 });
    expect(at(eagerStrategy())).toEqual({ pairs: 0, lostUpdates: 0 });
    // A wave plan that puts the two writes together counts them as overlapping.
    const together: Strategy = {
      name: 'together',
      description: 'One wave.',
      execute: () => ({
        kind: 'waves',
        plan: {
          planner: 'together',
          waves: [
            { calls: [0, 1], open: false },
            { calls: [2], open: false },
            { calls: [3], open: false },
          ],
        },
        maxConcurrency: 8,
        startMs: 0,
      }),
    };
    expect(at(together)).toEqual({ pairs: 1, lostUpdates: 1 });
    expect(
      countConflictingOverlaps({
        nodes: turn,
        schedule: { startMs: [0, 10, 20, 30], endMs: [10, 20, 30, 40] },
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

describe('the strategy list', () => {
  it('lists the planners, the clairvoyant optimal, eager and the peers once, in report order', () => {
    const strategies = defaultStrategies();
    expect(strategies.map((strategy) => strategy.name)).toEqual([
      'greedy',
      'ordered',
      'sequential',
      'optimal',
      'optimal-clairvoyant',
      'eager',
      'all-at-once',
      'wait-then-all-at-once',
      'consecutive-read-only',
      'global-rw-lock',
      'global-rw-lock-capped',
    ]);
    expect(
      strategies.filter((strategy) => strategy.clairvoyant === true).map((s) => s.name),
    ).toEqual(['optimal-clairvoyant']);
    expect(() => defaultStrategies({ optimalBudgetMs: 0 })).toThrow(
      'Expected `budgetMs` to be a finite number above 0, got `0` (number)',
    );
  });

  it('refuses no strategy, two with one name, and one that is no strategy, before it runs', async () => {
    await expect(runBench({ strategies: [] })).rejects.toThrow(
      'Expected at least one strategy, got none',
    );
    await expect(runBench({ strategies: [eagerStrategy(), eagerStrategy()] })).rejects.toThrow(
      'Expected strategy names to be unique, got `eager` twice',
    );
    await expect(
      runBench({ strategies: [{ name: 'half' } as unknown as Strategy] }),
    ).rejects.toThrow(
      'Expected every strategy to have a `name` and an `execute` function, got `half`',
    );
  });
});
