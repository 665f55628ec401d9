import {
  greedyPlanner,
  lowerBound,
  makespan,
  type Plan,
  type Planner,
  sequentialPlanner,
} from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { BenchError } from '../src/index.js';
import { comparePlanners } from '../src/simulate/compare-planners.js';
import type { BenchWorkload } from '../src/workloads/bench-batch.js';
import { node } from './report-fixture.js';

// Worked example, then two more seed-model batches.
const seedModel: BenchWorkload = {
  name: 'seed',
  description: 'seed-model batches',
  kind: 'seed-model',
  batches: [
    [
      node(0, 40, 'a'),
      node(1, 40, 'b'),
      node(2, 70, undefined, false),
      node(3, 150),
      node(4, 40, 'a'),
      node(5, 8),
    ],
    [node(0, 10, 'a'), node(1, 100, 'a'), node(2, 10, 'a')],
    [node(0, 5), node(1, 5)],
  ].map((nodes) => ({ size: nodes.length, nodes })),
};
const tools: BenchWorkload = {
  name: 'tools',
  description: 'tool batches',
  kind: 'tools',
  batches: [[node(0, 30, 'x'), node(1, 30, 'y'), node(2, 60, 'x')]].map((nodes) => ({
    size: nodes.length,
    nodes,
  })),
};

/** Greedy's plan, claiming `proven` on batches of even size. */
const longestFirst: Planner = {
  name: 'longest-first',
  plan(nodes) {
    const plan = greedyPlanner().plan(nodes);
    return { ...plan, planner: 'longest-first', proven: nodes.length % 2 === 0 };
  },
};
/** Breaks rule 2: everything in one wave. */
const oneWave: Planner = {
  name: 'one-wave',
  plan: (nodes): Plan => ({
    planner: 'one-wave',
    waves: [{ calls: nodes.map((n) => n.index), open: true }],
  }),
};
const clock = (): (() => number) => {
  let now = 0;
  return () => (now += 0.5);
};

describe('comparePlanners', () => {
  const planners = [greedyPlanner(), sequentialPlanner(), longestFirst, oneWave];
  const figures = comparePlanners({ workloads: [seedModel, tools], planners, clock: clock() });

  it('takes every figure from the planner package on every batch', () => {
    for (const [w, workload] of [seedModel, tools].entries()) {
      workload.batches.forEach((batch, b) => {
        const figuresOfBatch = figures[w]!.perBatch[b]!;
        expect(figuresOfBatch.lowerBoundMs).toBe(lowerBound(batch.nodes));
        for (const planner of planners) {
          const plan = planner.plan(batch.nodes);
          const result = figuresOfBatch.results.find((r) => r.planner === planner.name)!;
          expect(result.waves).toBe(plan.waves.length);
          expect(result.makespanMs).toBe(makespan(batch.nodes, plan));
          expect(result.planMs).toBe(0.5);
        }
      });
    }
  });

  it('sums makespans and lower bounds per workload and compares with greedy batch by batch', () => {
    const [seed] = figures;
    const sequential = seed!.results.find((r) => r.planner === 'sequential')!;
    const greedy = seed!.results.find((r) => r.planner === 'greedy')!;
    // greedy: [0,1,3,5] 150 + [2] 70 + [4] 40 = 260; [0] [1] [2] = 120; [0,1] = 5.
    expect(greedy.makespanMs).toBe(385);
    // sequential: 348 + 120 + 10.
    expect(sequential.makespanMs).toBe(478);
    expect(greedy.lowerBoundMs).toBe(seed!.perBatch.reduce((sum, b) => sum + b.lowerBoundMs, 0));
    expect(sequential.ratio).toBeCloseTo(478 / greedy.lowerBoundMs, 12);
    expect(greedy.versus).toBeNull();
    expect(sequential.versus).toEqual({
      reference: 'greedy',
      ratio: 478 / 385,
      faster: 0,
      slower: 2,
      bestGain: 0,
    });
    expect(seed!.batches).toBe(3);
    expect(seed!.calls).toBe(11);
  });

  it('reports how often plans are proven, invalid plans, and waves above the minimum', () => {
    const [seed, tool] = figures;
    const result = (name: string) => seed!.results.find((r) => r.planner === name)!;
    expect(result('greedy').proven).toBeNull();
    // Sizes 6, 3, 2: two of three are "proven".
    expect(result('longest-first').proven).toBeCloseTo(2 / 3, 12);
    expect(result('one-wave').invalidPlans).toBe(2);
    expect(result('greedy').invalidPlans).toBe(0);
    expect(result('greedy').aboveMinimalWaves).toBe(0);
    // Sequential is above the minimum on the example (6 > 3) and on [5, 5] (2 > 1).
    expect(result('sequential').aboveMinimalWaves).toBe(2);
    expect(tool!.results.every((r) => r.aboveMinimalWaves === null)).toBe(true);
    expect(seed!.perBatch.map((batch) => batch.minimalWaves)).toEqual([3, 3, 1]);
  });

  it('tells progress batch by batch', () => {
    const seen: string[] = [];
    comparePlanners({
      workloads: [seedModel, tools],
      planners: [greedyPlanner()],
      clock: clock(),
      onBatch: (done, total) => seen.push(`${done}/${total}`),
    });
    expect(seen).toEqual(['1/4', '2/4', '3/4', '4/4']);
  });

  it('names the planner and the batch when a planner throws', () => {
    const broken: Planner = {
      name: 'broken',
      plan: () => {
        throw new Error('no plan today');
      },
    };
    const run = () => comparePlanners({ workloads: [tools], planners: [broken], clock: clock() });
    expect(run).toThrow(BenchError);
    expect(run).toThrow(
      'Planner `broken` failed on batch 0 of workload `tools` (3 calls): no plan today',
    );
  });
});
