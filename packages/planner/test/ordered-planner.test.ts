// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { greedyPlanner, orderedPlanner, type PlanNode, verifyPlan } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accessBatch,
  anyBatch,
  nestedKeys,
  plainKeyBatch,
  seedBatch,
  slashKeys,
} from './batch-arbitraries.js';
import { safe, unsafe } from './plan-nodes.js';
import { isValidPlan, referenceFirstFit } from './reference-model.js';

const calls = (nodes: readonly PlanNode[]) =>
  orderedPlanner()
    .plan(nodes)
    .waves.map((w) => w.calls);

describe('orderedPlanner — pinned', () => {
  it('is named ordered', () => {
    expect(orderedPlanner().name).toBe('ordered');
    expect(orderedPlanner().plan([]).planner).toBe('ordered');
  });

  it('keeps the worked example in order around Edit(c): [[0,1],[2],[3,4,5]]', () => {
    const nodes = [safe(0, 'a'), safe(1, 'b'), unsafe(2), safe(3), safe(4, 'a'), safe(5)];
    expect(orderedPlanner().plan(nodes).waves).toEqual([
      { calls: [0, 1], open: false },
      { calls: [2], open: false },
      { calls: [3, 4, 5], open: true },
    ]);
  });

  it('packs the whole stretch between barriers, not only consecutive calls', () => {
    // 0 and 1 share key a, so 1 starts a second wave; 2 (key b) still joins the first.
    const nodes = [safe(0, 'a'), safe(1, 'a'), safe(2, 'b'), safe(3, 'a'), safe(4)];
    expect(calls(nodes)).toEqual([[0, 2, 4], [1], [3]]);
  });

  it('gives each of consecutive unsafe calls its own wave, in order', () => {
    expect(calls([unsafe(0), unsafe(1), safe(2), unsafe(3)])).toEqual([[0], [1], [2], [3]]);
  });

  it('gives no waves for an empty batch', () => {
    expect(orderedPlanner().plan([]).waves).toEqual([]);
  });
});

describe('orderedPlanner — properties', () => {
  it('keeps rules 1–5, by verifyPlan and by the pairwise checker', () => {
    fc.assert(
      fc.property(anyBatch(), (nodes) => {
        const plan = orderedPlanner().plan(nodes);
        assert.deepEqual(verifyPlan(nodes, plan, { ordered: true }), []);
        assert.equal(isValidPlan(nodes, plan, true), true);
      }),
      { numRuns: 3000 },
    );
  });

  it('equals first-fit between barriers written plainly', () => {
    fc.assert(
      fc.property(
        fc.oneof(accessBatch(40), plainKeyBatch([...slashKeys, ...nestedKeys], 40)),
        (nodes) => {
          assert.deepEqual(orderedPlanner().plan(nodes).waves, referenceFirstFit(nodes, true));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('equals greedy when every call is concurrency-safe', () => {
    const allSafe = fc
      .oneof(seedBatch(), accessBatch())
      .map((nodes) => nodes.map((node) => ({ ...node, parallelizable: true })));
    fc.assert(
      fc.property(allSafe, (nodes) => {
        assert.deepEqual(
          orderedPlanner()
            .plan(nodes)
            .waves.map((w) => w.calls),
          greedyPlanner()
            .plan(nodes)
            .waves.map((w) => w.calls),
        );
      }),
      { numRuns: 1000 },
    );
  });
});
