// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { greedyPlanner, makespan, type PlanNode, verifyPlan } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The heuristics behind optimalPlanner are internal to the package; they are tested on their
// own because the planner's guarantee past the exact search (valid, never worse than greedy)
// rests on each of them keeping the rules and never making a layout worse.
import { blockCost } from '../src/block-cost.js';
import { type ConflictGraph, conflictGraph } from '../src/conflict-graph.js';
import { improveLayout } from '../src/improve-layout.js';
import { longestFirstFit } from '../src/longest-first-fit.js';
import { orderWaves } from '../src/order-waves.js';
import { splitWaves } from '../src/split-waves.js';
import { swapCalls } from '../src/swap-calls.js';
import { WaveLayout } from '../src/wave-layout.js';
import { WorkBudget } from '../src/work-budget.js';
import { batch, cap, safeBatch } from './optimal-planner-batches.js';

const safe = (index: number, estimateMs: number, resourceKey?: string): PlanNode => ({
  index,
  parallelizable: true,
  estimateMs,
  ...(resourceKey === undefined ? {} : { resourceKey }),
});

/** The safe waves of greedy's plan, as a layout. */
const greedyLayout = (nodes: PlanNode[], graph: ConflictGraph, slots: number) => {
  const positionOf = new Map(graph.safe.map((call, position) => [call, position]));
  const blocks = greedyPlanner()
    .plan(nodes)
    .waves.map((wave) => wave.calls.flatMap((call) => positionOf.get(call) ?? []))
    .filter((block) => block.length > 0);
  return new WaveLayout(graph, slots, blocks);
};

/** The layout's bookkeeping is right and its plan keeps rules 1–4; returns the plan's makespan. */
const checkLayout = (nodes: PlanNode[], graph: ConflictGraph, layout: WaveLayout) => {
  layout.blocks.forEach((block, wave) => {
    assert.ok(block.length > 0, `expected block.length (${block.length}) > 0`);
    assert.deepEqual(
      [...block].sort((a, b) => a - b),
      block,
    );
    assert.equal(layout.costs[wave], blockCost(block, graph.durations, layout.slots));
    for (const position of block) assert.equal(layout.waveOf[position], wave);
  });
  assert.deepEqual(
    layout.blocks.flat().sort((a, b) => a - b),
    graph.safe.map((_, p) => p),
  );
  const plan = { planner: 'test', waves: orderWaves(graph, layout.blocks) };
  assert.deepEqual(verifyPlan(nodes, plan), []);
  // Waves in the layout's own order keep rule 4 too (orderWaves only reorders them).
  const inLayoutOrder = {
    planner: 'test',
    waves: [
      ...layout.blocks.map((block) => ({ calls: block.map((p) => graph.safe[p]!), open: true })),
      ...graph.unsafe.map((call) => ({ calls: [call], open: false })),
    ],
  };
  assert.deepEqual(verifyPlan(nodes, inLayoutOrder), []);
  return makespan(nodes, plan, { maxConcurrency: layout.slots });
};

const anyBatch = fc.oneof(batch(0, 40), safeBatch(2, 40));

describe('optimalPlanner heuristics', () => {
  it('longest-first packing keeps the rules, even when a chain is placed out of order', () => {
    // 0 before 1 before 2 (each pair conflicts), 2 is placed first: 0 may not join its wave,
    // or 1 would have nowhere to go.
    const nodes = [safe(0, 1, 'a'), safe(1, 1, 'a'), safe(2, 2, 'a')];
    const graph = conflictGraph(nodes)!;
    const layout = longestFirstFit(graph, 1, WorkBudget.unlimited())!;
    checkLayout(nodes, graph, layout);
    expect(layout.blocks).toEqual([[0], [1], [2]]);
    fc.assert(
      fc.property(anyBatch, cap, (batchNodes, slots) => {
        const batchGraph = conflictGraph(batchNodes)!;
        checkLayout(
          batchNodes,
          batchGraph,
          longestFirstFit(batchGraph, slots, WorkBudget.unlimited())!,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('moves, swaps and splits keep the rules and never lengthen the plan', () => {
    const steps = { move: improveLayout, swap: swapCalls, split: splitWaves };
    const shortened = { move: 0, swap: 0, split: 0 };
    fc.assert(
      fc.property(anyBatch, cap, (nodes, slots) => {
        const graph = conflictGraph(nodes)!;
        const layout = greedyLayout(nodes, graph, slots);
        let time = checkLayout(nodes, graph, layout);
        for (const name of ['move', 'swap', 'split', 'move', 'swap'] as const) {
          steps[name](layout, WorkBudget.unlimited());
          const next = checkLayout(nodes, graph, layout);
          assert.ok(next <= time, `expected next (${next}) <= time (${time})`);
          if (next < time) shortened[name]++;
          time = next;
        }
      }),
      { numRuns: 500 },
    );
    // Each kind of step did shorten some plans: the property above is not vacuous.
    expect(shortened.move).toBeGreaterThan(0);
    expect(shortened.swap).toBeGreaterThan(0);
    expect(shortened.split).toBeGreaterThan(0);
  });

  it('splits a wave whose list schedule misfires', () => {
    // 2 slots: one wave of 2, 2, 1, 1, 2 lasts 5; moving 1 and 4 out leaves 2 + 2.
    const nodes = [2, 2, 1, 1, 2].map((estimate, index) => safe(index, estimate));
    const graph = conflictGraph(nodes)!;
    const layout = new WaveLayout(graph, 2, [[0, 1, 2, 3, 4]]);
    expect(splitWaves(layout, WorkBudget.unlimited())).toBe(true);
    expect([...layout.blocks].sort((x, y) => x[0]! - y[0]!)).toEqual([
      [0, 2, 3],
      [1, 4],
    ]);
    expect(layout.total()).toBe(4);
    // A single move cannot: it would cost the moved call's whole duration.
    const single = new WaveLayout(graph, 2, [[0, 1, 2, 3, 4]]);
    improveLayout(single, WorkBudget.unlimited());
    expect(single.total()).toBe(5);
  });

  it('orders waves by rule 4, then by their earliest call, unsafe calls included', () => {
    const nodes: PlanNode[] = [
      safe(0, 1, 'k'),
      { index: 1, parallelizable: false },
      safe(2, 1, 'k'),
      safe(3, 1),
    ];
    const graph = conflictGraph(nodes)!;
    // Safe positions: 0 → call 0, 1 → call 2, 2 → call 3. Groups [1, 2] and [0]: [0] runs first.
    expect(orderWaves(graph, [[1, 2], [0]])).toEqual([
      { calls: [0], open: true },
      { calls: [1], open: false },
      { calls: [2, 3], open: true },
    ]);
  });
});
