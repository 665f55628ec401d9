// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  greedyPlanner,
  optimalPlanner,
  orderedPlanner,
  type Planner,
  sequentialPlanner,
  verifyPlan,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyBatch } from './batch-arbitraries.js';
import { workBudgeted } from './optimal-planner-batches.js';
import { workedExample } from './plan-nodes.js';
import { isValidPlan } from './reference-model.js';

describe('Planner.keepsOrder', () => {
  it('is true for ordered and sequential, not for greedy and optimal', () => {
    expect(orderedPlanner().keepsOrder).toBe(true);
    expect(sequentialPlanner().keepsOrder).toBe(true);
    expect(greedyPlanner().keepsOrder).not.toBe(true);
    expect(optimalPlanner().keepsOrder).not.toBe(true);
  });

  it('is a promise kept: every plan of such a planner keeps rule 5', () => {
    const keeping: Planner[] = [orderedPlanner(), sequentialPlanner()];
    fc.assert(
      fc.property(anyBatch(), fc.integer({ min: 1, max: 8 }), (nodes, maxConcurrency) => {
        for (const planner of keeping) {
          const plan = planner.plan(nodes, { maxConcurrency });
          assert.deepEqual(verifyPlan(nodes, plan, { ordered: true }), []);
          assert.equal(isValidPlan(nodes, plan, true), true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('is not claimed where calls cross: greedy and optimal move Grep(*) ahead of Edit(c)', () => {
    for (const planner of [greedyPlanner(), workBudgeted()]) {
      const plan = planner.plan(workedExample);
      expect(isValidPlan(workedExample, plan, true)).toBe(false);
    }
  });
});
