import type { ToolCall } from '@toolwaves/core';
import {
  greedyPlanner,
  orderedPlanner,
  type Plan,
  type PlanNode,
  type Planner,
  sequentialPlanner,
} from '@toolwaves/planner';
import type { BenchReport } from '../src/index.js';
import { compareStrategies } from '../src/simulate/compare-strategies.js';
import { eagerStrategy } from '../src/strategies/default-strategies.js';
import { allAtOnceStrategy } from '../src/strategies/peer-strategies.js';
import { plannerStrategy } from '../src/strategies/planner-strategy.js';
import type { BenchBatch, BenchWorkload } from '../src/workloads/workload.js';

/** A plan node with an estimate, an exclusive key when given, safe unless `safe` is false. */
export const node = (index: number, estimateMs: number, key?: string, safe = true): PlanNode => ({
  index,
  parallelizable: safe,
  estimateMs,
  ...(key === undefined ? {} : { resourceKey: key }),
});

/**
 * A bench batch from nodes whose `estimateMs` are the sampled durations: the nodes lose their
 * estimates, each call's tool is `tool-<key or keyless/unsafe>`, its arguments 20 characters.
 */
export function benchBatch(nodes: readonly PlanNode[], calls?: readonly ToolCall[]): BenchBatch {
  return {
    size: nodes.length,
    nodes: nodes.map(({ estimateMs: _duration, ...rest }) => rest),
    durationsMs: nodes.map((n) => n.estimateMs!),
    tools: nodes.map((n) => `tool-${n.parallelizable ? (n.resourceKey ?? 'keyless') : 'unsafe'}`),
    argumentChars: nodes.map(() => 20),
    ...(calls === undefined ? {} : { calls }),
  };
}

/** A workload of such batches for one seed, without warm-up turns. */
export function benchWorkload(options: {
  name: string;
  seed?: number;
  batches: readonly BenchBatch[];
}): BenchWorkload {
  return {
    name: options.name,
    description: `${options.name} batches.`,
    seed: options.seed ?? 1,
    warmup: [],
    batches: options.batches,
  };
}

/** A planner that says whether its plan is proven, like `optimal` does. */
export const provenGreedy: Planner = {
  name: 'proving',
  plan: (nodes): Plan => ({
    ...greedyPlanner().plan(nodes),
    planner: 'proving',
    proven: nodes.length < 7,
  }),
};

const calls: ToolCall[] = [
  { id: 'c0', name: 'read_file', input: { path: 'a.ts' } },
  { id: 'c1', name: 'read_file', input: { path: 'b.ts' } },
  { id: 'c2', name: 'run_check', input: { path: 'src' } },
  { id: 'c3', name: 'grep', input: { pattern: 'TODO', path: 'src' } },
  { id: 'c4', name: 'read_file', input: { path: 'a.ts' } },
  { id: 'c5', name: 'stat', input: { path: 'c.ts' } },
  { id: 'c6', name: 'move_file', input: { from: 'tmp/x', to: 'tmp/y' } },
];

/** The workloads of one seed: durations scaled by `scale`, so two seeds differ. */
export function fixtureWorkloads(seed: number, scale: number): BenchWorkload[] {
  const d = (ms: number) => ms * scale;
  return [
    benchWorkload({
      name: 'tools <a&b>',
      seed,
      batches: [
        benchBatch(
          [
            node(0, d(40), 'a'),
            node(1, d(40), 'b'),
            node(2, d(70), undefined, false),
            node(3, d(150)),
            node(4, d(40), 'a'),
            node(5, d(8)),
            node(6, d(30), 'c'),
          ],
          calls,
        ),
      ],
    }),
    benchWorkload({
      name: 'seed',
      seed,
      batches: [
        benchBatch([node(0, d(10), 'a'), node(1, d(100), 'a'), node(2, 10)]),
        benchBatch([node(0, 5, undefined, false), node(1, d(5))]),
      ],
    }),
  ];
}

/** The strategies of the fixture: four planners, eager and all-at-once. */
export const fixtureStrategies = () => [
  plannerStrategy(greedyPlanner()),
  plannerStrategy(orderedPlanner()),
  plannerStrategy(sequentialPlanner()),
  plannerStrategy(provenGreedy),
  eagerStrategy(),
  allAtOnceStrategy(),
];

/** Two seeds of two small workloads, compared: a report built without effects. */
export function reportFixture(): BenchReport {
  const seeds = [fixtureWorkloads(1, 1), fixtureWorkloads(2, 1.5)];
  const strategies = fixtureStrategies();
  const comparison = compareStrategies({ seeds, strategies });
  return {
    meta: {
      seeds: [1, 2],
      quick: true,
      maxConcurrency: 8,
      profile: {
        sizes: [2, 3, 7],
        repeats: 1,
        seeds: 2,
        warmupTurns: 0,
        realSizes: [7],
        realRepeats: 3,
        streamBudgetMs: 8000,
        retriedTurns: 40,
      },
      tokensPerSecond: 80,
      strategies: strategies.map((strategy) => ({
        name: strategy.name,
        description: strategy.description,
        clairvoyant: strategy.clairvoyant === true,
      })),
      reference: 'greedy',
      streamLatencyScale: 0.05,
      command: 'pnpm bench --quick',
      generatedAt: '2025-01-01T00:00:00.000Z',
      environment: 'Node v20, linux, 2 × test CPU',
    },
    workloads: comparison.workloads,
    overall: comparison.overall,
    realStreams: ['greedy', 'eager'].map((strategy, s) => ({
      workload: 'tools <a&b>',
      strategy,
      batches: 1,
      calls: 7,
      wallMs: 400 - s * 100,
      simulatedMs: 380 - s * 95,
      spread: 0.1,
      errors: 0,
    })),
    retriedStreams: {
      turns: 40,
      failShare: 0.3,
      attempts: { median: 52, min: 50, max: 55, perSeed: [50, 55] },
      failedAttempts: { median: 12, min: 10, max: 15, perSeed: [10, 15] },
      strategies: [
        {
          whileStreaming: 'all',
          discardedSideEffects: { median: 9, min: 7, max: 11, perSeed: [7, 11] },
          turnMs: { median: 3200, min: 3100, max: 3300, perSeed: [3100, 3300] },
          afterStreamMs: { median: 400, min: 400, max: 400, perSeed: [400, 400] },
        },
        {
          whileStreaming: 'read-only',
          discardedSideEffects: { median: 0, min: 0, max: 0, perSeed: [0, 0] },
          turnMs: { median: 3400, min: 3300, max: 3500, perSeed: [3300, 3500] },
          afterStreamMs: { median: 600, min: 600, max: 600, perSeed: [600, 600] },
        },
      ],
      readOnlyVersusAll: { median: 1.06, min: 1.06, max: 1.06, perSeed: [1.06, 1.06] },
    },
  };
}
