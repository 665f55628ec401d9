import {
  greedyPlanner,
  lowerBound,
  makespan,
  optimalPlanner,
  type Plan,
  type Planner,
  sequentialPlanner,
} from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { BenchError } from '../src/index.js';
import { compareStrategies } from '../src/simulate/compare-strategies.js';
import { eagerStrategy } from '../src/strategies/default-strategies.js';
import {
  allAtOnceStrategy,
  consecutiveReadOnlyStrategy,
  globalRwLockStrategy,
} from '../src/strategies/peer-strategies.js';
import { plannerStrategy } from '../src/strategies/planner-strategy.js';
import type { Execution, Strategy, TurnView } from '../src/strategies/strategy.js';
import type { BenchWorkload } from '../src/workloads/workload.js';
import { benchBatch, benchWorkload, node } from './report-fixture.js';

// Worked example, then two more seed-model batches.
const seedBatches = [
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
];
const seedModel = benchWorkload({
  name: 'seed',
  batches: seedBatches.map((nodes) => benchBatch(nodes)),
});
const toolNodes = [node(0, 30, 'x'), node(1, 30, 'y'), node(2, 60, 'x')];
const tools = benchWorkload({ name: 'tools', batches: [benchBatch(toolNodes)] });

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
describe('compareStrategies', () => {
  const planners = [greedyPlanner(), sequentialPlanner(), longestFirst, oneWave];
  const strategies = planners.map((planner) => plannerStrategy(planner));
  const { workloads } = compareStrategies({ seeds: [[seedModel, tools]], strategies });

  it('takes every figure from the planner package on every batch', () => {
    const batches = [seedBatches, [toolNodes]];
    batches.forEach((nodesOfBatches, w) => {
      nodesOfBatches.forEach((nodes, b) => {
        const figures = workloads[w]!.perBatch[b]!;
        expect(figures.lowerBoundMs).toBe(lowerBound(nodes));
        for (const planner of planners) {
          const plan = planner.plan(nodes);
          const result = figures.batch.find((r) => r.strategy === planner.name)!;
          expect(result.waves).toBe(plan.waves.length);
          expect(result.turnMs).toBe(makespan(nodes, plan));
        }
      });
    });
  });

  it('sums turn times per workload and compares them with greedy and the lower bound', () => {
    const [seed] = workloads;
    const sequential = seed!.batch.find((r) => r.strategy === 'sequential')!;
    const greedy = seed!.batch.find((r) => r.strategy === 'greedy')!;
    const bound = seed!.perBatch.reduce((sum, b) => sum + b.lowerBoundMs, 0);
    // greedy: [0,1,3,5] 150 + [2] 70 + [4] 40 = 260; [0] [1] [2] = 120; [0,1] = 5 → 385.
    // sequential: 348 + 120 + 10 = 478.
    expect(greedy.turnMs.median).toBeCloseTo(385 / 3, 9);
    expect(sequential.versusGreedy?.median).toBeCloseTo(478 / 385, 12);
    expect(sequential.versusBound.median).toBeCloseTo(478 / bound, 12);
    expect(greedy.versusGreedy?.median).toBe(1);
    expect(seed!.batches).toBe(3);
    expect(seed!.calls).toBe(11);
  });

  it('reports how often plans are proven and invalid plans', () => {
    const [seed] = workloads;
    const result = (name: string) => seed!.batch.find((r) => r.strategy === name)!;
    expect(result('greedy').proven).toBeNull();
    // Sizes 6, 3, 2: two of three are "proven".
    expect(result('longest-first').proven).toBeCloseTo(2 / 3, 12);
    expect(result('one-wave').invalidPlans).toBe(2);
    expect(result('greedy').invalidPlans).toBe(0);
  });

  it('tells progress batch by batch, over every seed', () => {
    const seen: string[] = [];
    compareStrategies({
      seeds: [
        [seedModel, tools],
        [seedModel, tools],
      ],
      strategies: [plannerStrategy(greedyPlanner())],
      onBatch: (done, total) => seen.push(`${done}/${total}`),
    });
    expect(seen).toEqual(['1/8', '2/8', '3/8', '4/8', '5/8', '6/8', '7/8', '8/8']);
  });

  it('names the strategy and the batch when one throws', () => {
    const broken: Planner = {
      name: 'broken',
      plan: () => {
        throw new Error('no plan today');
      },
    };
    const run = () =>
      compareStrategies({ seeds: [[tools]], strategies: [plannerStrategy(broken)] });
    expect(run).toThrow(BenchError);
    expect(run).toThrow(
      'Strategy `broken` failed on batch 0 of workload `tools` (3 calls): no plan today',
    );
  });

  it('gives each figure across seeds: the median and the range of the per-seed ratios', () => {
    // Seed 2 doubles sequential's work on the worked example only.
    const doubled = benchWorkload({
      name: 'seed',
      seed: 2,
      batches: [
        benchBatch([node(0, 10, 'a'), node(1, 10, 'b')]), // greedy 10, sequential 20
      ],
    });
    const same = benchWorkload({
      name: 'seed',
      seed: 1,
      batches: [benchBatch([node(0, 10, 'a'), node(1, 10, 'a')])], // both 20
    });
    const { workloads: figures } = compareStrategies({
      seeds: [[same], [doubled]],
      strategies: [plannerStrategy(greedyPlanner()), plannerStrategy(sequentialPlanner())],
    });
    const sequential = figures[0]!.batch.find((r) => r.strategy === 'sequential')!;
    expect(sequential.versusGreedy).toEqual({ median: 1.5, min: 1, max: 2, perSeed: [1, 2] });
    expect(sequential.turnMs).toEqual({ median: 20, min: 20, max: 20, perSeed: [20, 20] });
  });
});

describe('streamed turns', () => {
  it('time a turn from the first tool-call token, and the tool time after the stream', () => {
    // Two calls, 20 characters of arguments each: 17 tokens each at 80 tokens/s.
    const pair = benchWorkload({
      name: 'pair',
      batches: [benchBatch([node(0, 100, 'a'), node(1, 100, 'b')])],
    });
    const { workloads } = compareStrategies({
      seeds: [[pair]],
      strategies: [plannerStrategy(greedyPlanner()), eagerStrategy()],
    });
    const batch = workloads[0]!.perBatch[0]!;
    expect(batch.streamEndMs).toBeCloseTo(425, 9);
    const greedy = batch.stream.find((r) => r.strategy === 'greedy')!;
    const eager = batch.stream.find((r) => r.strategy === 'eager')!;
    // Greedy waits for the stream's end, then one wave of 100 ms.
    expect(greedy.turnMs).toBeCloseTo(525, 9);
    expect(greedy.afterStreamMs).toBeCloseTo(100, 9);
    // Eager starts call 0 at 212.5 (ends 312.5) and call 1 at 425 (ends 525).
    expect(eager.turnMs).toBeCloseTo(525, 9);
    // Lower bound with arrivals: the last call arrives at 425 and runs 100 ms.
    expect(batch.streamLowerBoundMs).toBeCloseTo(525, 9);
  });
});

describe('what strategies see', () => {
  /** Records every view a strategy is given and every execution it returns. */
  const spy = (inner: Strategy) => {
    const views: TurnView[] = [];
    const executions: Execution[] = [];
    const strategy: Strategy = {
      ...inner,
      name: inner.name,
      description: inner.description,
      execute: (view) => {
        views.push(view);
        const execution = inner.execute(view);
        executions.push(execution);
        return execution;
      },
    };
    return { strategy, views, executions };
  };
  const SENTINEL = 987_654.321;
  const strategiesOf = () => [
    spy(plannerStrategy(greedyPlanner())),
    spy(plannerStrategy(optimalPlanner({ budgetMs: 10_000, maxExpansions: 2000 }))),
    spy(eagerStrategy()),
    spy(allAtOnceStrategy()),
    spy(consecutiveReadOnlyStrategy()),
    spy(globalRwLockStrategy()),
    spy(
      plannerStrategy(optimalPlanner({ budgetMs: 10_000, maxExpansions: 2000 }), {
        name: 'optimal-clairvoyant',
        clairvoyant: true,
      }),
    ),
  ];
  /** The mixed batch of the last turn gets `last` as every duration; earlier turns are fixed. */
  const workload = (last: (ms: number) => number): BenchWorkload => ({
    ...benchWorkload({
      name: 'mixed',
      batches: [
        benchBatch([node(0, 40, 'a'), node(1, 150), node(2, 70, 'b'), node(3, 40, 'a')]),
        benchBatch(
          [
            node(0, last(40), 'a'),
            node(1, last(150)),
            node(2, last(70), 'b'),
            node(3, last(40), 'a'),
            node(4, last(400), undefined, false),
            node(5, last(8)),
          ].map((n) => ({ ...n })),
        ),
      ],
    }),
    warmup: [{ tools: ['tool-a', 'tool-keyless'], durationsMs: [35, 120] }],
  });

  it('never shows a non-clairvoyant strategy the sampled durations of the turn it runs', () => {
    const honest = strategiesOf();
    compareStrategies({
      seeds: [[workload(() => SENTINEL)]],
      strategies: honest.map((entry) => entry.strategy),
    });
    const other = strategiesOf();
    compareStrategies({
      seeds: [[workload((ms) => ms * 3)]],
      strategies: other.map((entry) => entry.strategy),
    });
    honest.forEach((entry, s) => {
      const seen = JSON.stringify(entry.views);
      if (entry.strategy.clairvoyant === true) {
        // The labelled clairvoyant row does see them, and decides differently.
        expect(seen).toContain(String(SENTINEL));
        return;
      }
      expect(seen, entry.strategy.name).not.toContain(String(SENTINEL));
      // Whatever the durations of the turn, the strategy decides the same.
      expect(entry.executions, entry.strategy.name).toEqual(other[s]!.executions);
      expect(entry.views, entry.strategy.name).toEqual(other[s]!.views);
    });
  });

  it('shows planners the health record: the warm-up turns, then the earlier turns of the seed', () => {
    const [greedy] = strategiesOf();
    compareStrategies({ seeds: [[workload((ms) => ms)]], strategies: [greedy!.strategy] });
    const estimates = (view: TurnView) => view.nodes.map((n) => n.estimateMs);
    // Turn 1: only the warm-up has been seen (tool-a 35, tool-keyless 120; tool-b never).
    expect(estimates(greedy!.views[0]!)).toEqual([35, 120, undefined, 35]);
    // Turn 2: the record moved by 0.2 of each sample of turn 1 (in call order).
    const a = 35 + 0.2 * (40 - 35);
    const a2 = a + 0.2 * (40 - a);
    expect(estimates(greedy!.views[2]!)).toEqual([
      a2,
      120 + 0.2 * (150 - 120),
      70,
      a2,
      undefined,
      120 + 0.2 * (150 - 120),
    ]);
  });
});
