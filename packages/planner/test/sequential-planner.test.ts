// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { sequentialPlanner, verifyPlan } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyBatch } from './batch-arbitraries.js';
import { isValidPlan } from './reference-model.js';

describe('sequentialPlanner', () => {
  it('is named sequential and gives one closed wave per call, in model order', () => {
    const plan = sequentialPlanner().plan([
      { index: 0, parallelizable: true, resourceKey: 'a' },
      { index: 1, parallelizable: false },
      { index: 2, parallelizable: true },
    ]);
    expect(plan).toEqual({
      planner: 'sequential',
      waves: [
        { calls: [0], open: false },
        { calls: [1], open: false },
        { calls: [2], open: false },
      ],
    });
  });

  it('gives no waves for an empty batch', () => {
    expect(sequentialPlanner().plan([]).waves).toEqual([]);
  });

  it('keeps rules 1–5', () => {
    fc.assert(
      fc.property(anyBatch(), (nodes) => {
        const plan = sequentialPlanner().plan(nodes);
        assert.deepEqual(verifyPlan(nodes, plan, { ordered: true }), []);
        assert.equal(isValidPlan(nodes, plan, true), true);
        assert.deepEqual(
          plan.waves.flatMap((wave) => wave.calls),
          nodes.map((node) => node.index),
        );
      }),
      { numRuns: 2000 },
    );
  });
});
