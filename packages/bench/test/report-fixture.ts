import {
  greedyPlanner,
  orderedPlanner,
  type Plan,
  type PlanNode,
  type Planner,
  sequentialPlanner,
} from '@toolwaves/planner';
import type { BenchReport } from '../src/index.js';
import { ganttFigures } from '../src/report/gantt-figures.js';
import { pickGanttBatch } from '../src/report/pick-gantt-batch.js';
import { comparePlanners } from '../src/simulate/compare-planners.js';
import type { BenchWorkload } from '../src/workloads/bench-batch.js';

/** A plan node with an estimate, an exclusive key when given, safe unless `safe` is false. */
export const node = (index: number, estimateMs: number, key?: string, safe = true): PlanNode => ({
  index,
  parallelizable: safe,
  estimateMs,
  ...(key === undefined ? {} : { resourceKey: key }),
});

/** A planner that says whether its plan is proven, like `optimal` does. */
export const provenGreedy: Planner = {
  name: 'proving',
  plan: (nodes): Plan => ({
    ...greedyPlanner().plan(nodes),
    planner: 'proving',
    proven: nodes.length < 7,
  }),
};

/** Two small workloads, planned by four planners with a virtual clock: a report built without effects. */
export function reportFixture(): BenchReport {
  const workloads: BenchWorkload[] = [
    {
      name: 'tools <a&b>',
      description: 'Calls of tools.',
      kind: 'tools',
      batches: [
        {
          size: 7,
          nodes: [
            node(0, 40, 'a'),
            node(1, 40, 'b'),
            node(2, 70, undefined, false),
            node(3, 150),
            node(4, 40, 'a'),
            node(5, 8),
            node(6, 30, 'c'),
          ],
          calls: [
            { id: 'c0', name: 'read_file', input: { path: 'a.ts' } },
            { id: 'c1', name: 'read_file', input: { path: 'b.ts' } },
            { id: 'c2', name: 'run_check', input: { path: 'src' } },
            { id: 'c3', name: 'grep', input: { pattern: 'TODO', path: 'src' } },
            { id: 'c4', name: 'read_file', input: { path: 'a.ts' } },
            { id: 'c5', name: 'stat', input: { path: 'c.ts' } },
            { id: 'c6', name: 'move_file', input: { from: 'tmp/x', to: 'tmp/y' } },
          ],
        },
      ],
    },
    {
      name: 'seed',
      description: 'Seed model.',
      kind: 'seed-model',
      batches: [
        { size: 3, nodes: [node(0, 10, 'a'), node(1, 100, 'a'), node(2, 10)] },
        { size: 2, nodes: [node(0, 5, undefined, false), node(1, 5)] },
      ],
    },
  ];
  const planners = [greedyPlanner(), orderedPlanner(), sequentialPlanner(), provenGreedy];
  let now = 0;
  const figures = comparePlanners({ workloads, planners, clock: () => (now += 0.01) });
  const choice = pickGanttBatch({ workloads: figures, reference: 'greedy', minSize: 1 });
  return {
    meta: {
      seed: 1,
      quick: true,
      maxConcurrency: 8,
      sizes: [2, 3, 7],
      repeats: 1,
      planners: planners.map((planner) => planner.name),
      reference: 'greedy',
      latencyScale: 0.1,
      realSizes: [7],
      realRepeats: 3,
      command: 'pnpm bench --quick',
      generatedAt: '2025-01-01T00:00:00.000Z',
      environment: 'Node v20, linux, 2 × test CPU',
    },
    workloads: figures,
    scaling: [10, 100, 1000].flatMap((size) =>
      planners.map((planner, p) =>
        planner.name === 'proving' && size === 1000
          ? {
              planner: planner.name,
              size,
              planMs: null,
              waves: null,
              skipped: 'took 2000 ms at 100 calls (cap 1000 ms)',
            }
          : { planner: planner.name, size, planMs: (size / 1000) * (p + 1), waves: size },
      ),
    ),
    realRuns: planners.map((planner, p) => ({
      workload: 'tools <a&b>',
      planner: planner.name,
      batches: 1,
      calls: 7,
      wallMs: 30 + p * 10,
      simulatedMs: 26 + p * 10,
      spread: 0.05 * p,
      errors: 0,
      errorSamples: [],
    })),
    gantt: choice === undefined ? null : ganttFigures({ workloads, choice, planners }),
  };
}
