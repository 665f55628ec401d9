import { greedyPlanner, lowerBound, makespan, type PlanNode, verifyPlan } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batch, cap, safeBatch, workBudgeted } from './optimal-planner-batches.js';

// Properties of optimalPlanner on batches too large for brute force. The search is cut by a
// node-expansion limit (deterministic) or by the default time budget; either way the plan must
// keep the rules and never lose to greedy. No assertion depends on how fast the machine is.

const check = (nodes: PlanNode[], maxConcurrency: number, planner = workBudgeted()) => {
  const plan = planner.plan(nodes, { maxConcurrency });
  const greedy = greedyPlanner().plan(nodes);
  const time = makespan(nodes, plan, { maxConcurrency });
  const greedyTime = makespan(nodes, greedy, { maxConcurrency });
  expect(verifyPlan(nodes, plan)).toEqual([]);
  expect(plan.planner).toBe('optimal');
  expect(lowerBound(nodes, { maxConcurrency })).toBeLessThanOrEqual(time);
  expect(time).toBeLessThanOrEqual(greedyTime);
  if (time === greedyTime) expect(plan.waves.length).toBeLessThanOrEqual(greedy.waves.length);
  return { plan, time };
};

const capped = workBudgeted(20_000);

describe('optimalPlanner — properties', () => {
  it('keeps rules 1–4 and lowerBound <= makespan <= greedy on batches of 0–30 calls', () => {
    fc.assert(
      fc.property(batch(0, 30), fc.integer({ min: 1, max: 8 }), (nodes, maxConcurrency) => {
        check(nodes, maxConcurrency, capped);
      }),
      { numRuns: 1000 },
    );
  }, 60_000);

  it('does so on batches of 20–64 calls, past what it can prove, with proven false unless the plan meets the bound', () => {
    fc.assert(
      fc.property(batch(20, 64), cap, (nodes, maxConcurrency) => {
        const { plan, time } = check(nodes, maxConcurrency, capped);
        if (plan.proven === true && nodes.filter((node) => node.parallelizable).length > 30) {
          // Beyond the exact search, only meeting the lower bound proves a plan optimal.
          expect(time).toBeLessThanOrEqual(Math.ceil(lowerBound(nodes, { maxConcurrency })));
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('does so on batches of 20–64 safe calls on a few keys, where duration-aware packing pays', () => {
    fc.assert(
      fc.property(safeBatch(20, 64), cap, (nodes, maxConcurrency) => {
        check(nodes, maxConcurrency, capped);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('does so under the default work budget', () => {
    fc.assert(
      fc.property(fc.oneof(batch(20, 64), safeBatch(20, 40)), cap, (nodes, maxConcurrency) => {
        check(nodes, maxConcurrency);
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('with a tiny expansion limit, says not proven and still plans validly, no worse than greedy', () => {
    const tiny = workBudgeted(3);
    let unproven = 0;
    fc.assert(
      fc.property(safeBatch(12, 16), fc.integer({ min: 2, max: 4 }), (nodes, maxConcurrency) => {
        const { plan, time } = check(nodes, maxConcurrency, tiny);
        const bound = Math.ceil(lowerBound(nodes, { maxConcurrency }));
        // Without search, only a plan that meets the lower bound (with the fewest waves the
        // conflicts allow) may be called proven.
        if (time > bound) expect(plan.proven).toBe(false);
        if (plan.proven === false) unproven++;
      }),
      { numRuns: 300 },
    );
    expect(unproven).toBeGreaterThan(0);
  }, 60_000);
});
