// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  DEFAULT_ESTIMATE_MS,
  greedyPlanner,
  lowerBound,
  makespan,
  orderedPlanner,
  type Plan,
  type PlanNode,
  PlannerError,
  sequentialPlanner,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessBatch, anyBatch } from './batch-arbitraries.js';
import { bruteForce, referenceWave } from './brute-force-plans.js';

const timed = (index: number, estimateMs: number, parallelizable = true): PlanNode => ({
  index,
  parallelizable,
  estimateMs,
});
const oneWave = (count: number): Plan => ({
  planner: 'custom',
  waves: [{ calls: Array.from({ length: count }, (_, i) => i), open: true }],
});

describe('makespan — pinned', () => {
  it('starts calls as slots free up: [5,1,1,1,4] on 2 slots takes 7', () => {
    const nodes = [5, 1, 1, 1, 4].map((ms, i) => timed(i, ms));
    expect(makespan(nodes, oneWave(5), { maxConcurrency: 2 })).toBe(7);
    expect(makespan(nodes, oneWave(5), { maxConcurrency: 5 })).toBe(5);
    expect(makespan(nodes, oneWave(5), { maxConcurrency: 1 })).toBe(12);
  });

  it('adds waves one after another and defaults a missing estimate to 1 ms', () => {
    expect(DEFAULT_ESTIMATE_MS).toBe(1);
    const nodes: PlanNode[] = [timed(0, 4), { index: 1, parallelizable: true }, timed(2, 3, false)];
    const plan: Plan = {
      planner: 'custom',
      waves: [
        { calls: [0, 1], open: true },
        { calls: [2], open: false },
      ],
    };
    expect(makespan(nodes, plan)).toBe(7);
    expect(makespan(nodes, sequentialPlanner().plan(nodes))).toBe(8);
    expect(makespan([], { planner: 'custom', waves: [] })).toBe(0);
  });

  it('uses a cap of 8 by default', () => {
    const nodes = Array.from({ length: 9 }, (_, i) => timed(i, 10));
    expect(makespan(nodes, oneWave(9))).toBe(20);
    expect(makespan(nodes, oneWave(9), { maxConcurrency: 9 })).toBe(10);
  });

  it('refuses a plan naming calls the batch does not have', () => {
    expect(() =>
      makespan([timed(0, 1)], { planner: 'custom', waves: [{ calls: [3], open: true }] }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_plan',
        message: 'Expected the calls of wave 1 to be in the batch of 1 calls, got `3` (number)',
      }),
    );
  });

  it('equals list scheduling written plainly, wave by wave', () => {
    fc.assert(
      fc.property(anyBatch(40), fc.integer({ min: 1, max: 6 }), (nodes, cap) => {
        const plan = greedyPlanner().plan(nodes);
        const expected = plan.waves.reduce(
          (sum, wave) =>
            sum +
            referenceWave(
              wave.calls.map((c) => nodes[c]!.estimateMs ?? 1),
              cap,
            ),
          0,
        );
        assert.equal(makespan(nodes, plan, { maxConcurrency: cap }), expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('lowerBound', () => {
  it('is the longest chain when calls serialize: unsafe calls add up, conflicting safe calls chain', () => {
    // 0 and 2 share key a (a chain of 3 + 4 ms); 1 is unsafe (5 ms, alone); 3 conflicts with
    // nothing (6 ms, shorter than the chain).
    const nodes: PlanNode[] = [
      { index: 0, parallelizable: true, resourceKey: 'a', estimateMs: 3 },
      timed(1, 5, false),
      { index: 2, parallelizable: true, resourceKey: 'a', estimateMs: 4 },
      timed(3, 6),
    ];
    expect(lowerBound(nodes)).toBe(5 + 7);
    expect(makespan(nodes, greedyPlanner().plan(nodes))).toBe(5 + 6 + 4);
  });

  it('is the work divided by the cap when that is larger', () => {
    const nodes = Array.from({ length: 10 }, (_, i) => timed(i, 2));
    expect(lowerBound(nodes, { maxConcurrency: 4 })).toBe(5);
    expect(makespan(nodes, greedyPlanner().plan(nodes), { maxConcurrency: 4 })).toBe(6);
  });

  it('is at least the longest call, and 0 for an empty batch', () => {
    expect(lowerBound([timed(0, 9), timed(1, 1)], { maxConcurrency: 2 })).toBe(9);
    expect(lowerBound([])).toBe(0);
  });

  it('follows hierarchical keys and lets reads overlap', () => {
    const nodes: PlanNode[] = [
      { index: 0, parallelizable: true, access: [{ key: 'fs:/a', mode: 'read' }], estimateMs: 4 },
      { index: 1, parallelizable: true, access: [{ key: 'fs:/a/b', mode: 'read' }], estimateMs: 4 },
      {
        index: 2,
        parallelizable: true,
        access: [{ key: 'fs:/a/b/c', mode: 'write' }],
        estimateMs: 4,
      },
    ];
    expect(lowerBound(nodes)).toBe(8);
  });

  it('is never above the makespan of any planner, and greedy and ordered never take longer than sequential', () => {
    fc.assert(
      fc.property(anyBatch(40), fc.integer({ min: 1, max: 10 }), (nodes, cap) => {
        const options = { maxConcurrency: cap };
        const bound = lowerBound(nodes, options);
        const greedy = makespan(nodes, greedyPlanner().plan(nodes), options);
        const ordered = makespan(nodes, orderedPlanner().plan(nodes), options);
        const sequential = makespan(nodes, sequentialPlanner().plan(nodes), options);
        assert.ok(bound <= greedy, `expected bound (${bound}) <= greedy (${greedy})`);
        assert.ok(bound <= ordered, `expected bound (${bound}) <= ordered (${ordered})`);
        assert.ok(bound <= sequential, `expected bound (${bound}) <= sequential (${sequential})`);
        assert.ok(
          greedy <= sequential,
          `expected greedy (${greedy}) <= sequential (${sequential})`,
        );
        assert.ok(
          ordered <= sequential,
          `expected ordered (${ordered}) <= sequential (${sequential})`,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('is never above the best makespan of all valid plans, by brute force on small batches', () => {
    fc.assert(
      fc.property(accessBatch(5), fc.integer({ min: 1, max: 3 }), (nodes, cap) => {
        const best = bruteForce(nodes, { maxConcurrency: cap }).makespan;
        assert.ok(
          lowerBound(nodes, { maxConcurrency: cap }) <= best,
          `expected lowerBound(nodes, { maxConcurrency: cap }) <= best (${best})`,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('throws PlannerError for a bad estimate', () => {
    expect(() => lowerBound([timed(0, -1)])).toThrow(PlannerError);
  });
});
