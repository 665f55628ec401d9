// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { makespan, type PlanNode, verifyPlan } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bruteForce } from './brute-force-plans.js';
import { withEdges } from './edge-arbitraries.js';
import { batch, cap, workBudgeted } from './optimal-planner-batches.js';

// A budget no test run comes near, so `proven` does not depend on the machine's speed.
const planner = workBudgeted(10_000_000);

describe('optimalPlanner — ordering edges, against brute force', () => {
  it('finds the least (makespan, waves) of every plan that keeps the rules and the edges', () => {
    fc.assert(
      fc.property(withEdges(batch(0, 7)), cap, (nodes: PlanNode[], maxConcurrency) => {
        const plan = planner.plan(nodes, { maxConcurrency });
        const reference = bruteForce(nodes, { maxConcurrency });
        assert.deepEqual(verifyPlan(nodes, plan), []);
        assert.deepEqual(
          {
            makespan: makespan(nodes, plan, { maxConcurrency }),
            waves: plan.waves.length,
          },
          { makespan: reference.makespan, waves: reference.waves },
        );
        assert.equal(plan.proven, true);
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it('keeps an edge through a call that is not concurrency-safe (safe → unsafe → safe)', () => {
    // Without the chain, calls 0 and 2 would share a wave; through call 1 they may not.
    const nodes: PlanNode[] = [
      { index: 0, parallelizable: true, estimateMs: 5 },
      { index: 1, parallelizable: false, estimateMs: 1, after: [0] },
      { index: 2, parallelizable: true, estimateMs: 5, after: [1] },
    ];
    const plan = planner.plan(nodes, { maxConcurrency: 4 });
    expect(plan.waves.map((wave) => wave.calls)).toEqual([[0], [1], [2]]);
    expect(bruteForce(nodes, { maxConcurrency: 4 })).toEqual({ makespan: 11, waves: 3 });
  });
});
