import assert from 'node:assert/strict';
import { greedyPlanner, makespan, type Plan, type PlanNode, verifyPlan } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BruteForceOptions, bruteForce, referenceWave } from './brute-force-plans.js';
import { referenceEdges, withEdges } from './edge-arbitraries.js';
import { batch, cap, safeBatch, workBudgeted } from './optimal-planner-batches.js';
import { allPlans, isValidPlan } from './reference-model.js';

// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, more than the
// planner on these batches, and the properties make thousands of checks.

// A budget no test run comes near, so `proven` does not depend on the machine's speed.
const planner = workBudgeted(10_000_000);

const matchesBruteForce = (nodes: PlanNode[], maxConcurrency: number) => {
  const plan = planner.plan(nodes, { maxConcurrency });
  const reference = bruteForce(nodes, { maxConcurrency });
  assert.deepEqual(verifyPlan(nodes, plan), []);
  assert.deepEqual(
    { makespan: makespan(nodes, plan, { maxConcurrency }), waves: plan.waves.length },
    { makespan: reference.makespan, waves: reference.waves },
  );
  assert.equal(plan.proven, true);
};

/** The brute force's answer the slow way: every ordered partition, each checked pair by pair. */
const everyPlanChecked = (nodes: PlanNode[], { maxConcurrency, ordered }: BruteForceOptions) => {
  const keepsEdges = (plan: Plan) =>
    referenceEdges(nodes).every(
      ([earlier, later]) =>
        plan.waves.findIndex((wave) => wave.calls.includes(earlier)) <
        plan.waves.findIndex((wave) => wave.calls.includes(later)),
    );
  let best = { makespan: Number.POSITIVE_INFINITY, waves: Number.POSITIVE_INFINITY };
  for (const plan of allPlans(nodes.length)) {
    if (!isValidPlan(nodes, plan, ordered === true) || !keepsEdges(plan)) continue;
    const time =
      maxConcurrency === undefined
        ? 0
        : plan.waves.reduce(
            (sum, wave) =>
              sum +
              referenceWave(
                wave.calls.map((call) => nodes[call]!.estimateMs ?? 1),
                maxConcurrency,
              ),
            0,
          );
    const waves = plan.waves.length;
    if (time < best.makespan || (time === best.makespan && waves < best.waves)) {
      best = { makespan: time, waves };
    }
  }
  return best;
};

describe('optimalPlanner — against brute force', () => {
  it('finds the least (makespan, waves) of every valid plan, proven, on mixed batches of up to 8 calls', () => {
    fc.assert(fc.property(batch(0, 8), cap, matchesBruteForce), { numRuns: 1200 });
  }, 60_000);

  it('does so on batches of 7–8 safe calls, keyless or on a few keys (the widest search)', () => {
    fc.assert(fc.property(safeBatch(7, 8), cap, matchesBruteForce), { numRuns: 400 });
  }, 60_000);

  it('claims proven only when optimal, and is never worse than greedy, even with no search at all', () => {
    const unsearched = workBudgeted(0);
    fc.assert(
      fc.property(batch(0, 8), cap, (nodes, maxConcurrency) => {
        const plan = unsearched.plan(nodes, { maxConcurrency });
        const greedy = greedyPlanner().plan(nodes);
        const time = makespan(nodes, plan, { maxConcurrency });
        const greedyTime = makespan(nodes, greedy, { maxConcurrency });
        assert.deepEqual(verifyPlan(nodes, plan), []);
        assert.ok(time <= greedyTime, `makespan ${time} > greedy's ${greedyTime}`);
        if (time === greedyTime) {
          assert.ok(plan.waves.length <= greedy.waves.length, 'more waves than greedy');
        }
        if (plan.proven) {
          const reference = bruteForce(nodes, { maxConcurrency });
          assert.deepEqual({ makespan: time, waves: plan.waves.length }, reference);
        }
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it('checks itself: the slow way lists every ordered partition once', () => {
    // Fubini numbers count ordered partitions.
    const counts = [0, 1, 2, 3, 4, 5].map((count) => [...allPlans(count)].length);
    expect(counts).toEqual([1, 1, 3, 13, 75, 541]);
    const keys = [...allPlans(4)].map((plan) => JSON.stringify(plan.waves.map((w) => w.calls)));
    expect(new Set(keys).size).toBe(75);
  });

  it('checks itself: the brute force agrees with every plan checked the slow way, edges and rule 5 included', () => {
    const options = fc.record({
      maxConcurrency: fc.option(cap, { nil: undefined }),
      ordered: fc.boolean(),
    });
    fc.assert(
      fc.property(withEdges(batch(0, 5)), options, (nodes, { maxConcurrency, ordered }) => {
        const given = { ordered, ...(maxConcurrency === undefined ? {} : { maxConcurrency }) };
        assert.deepEqual(bruteForce(nodes, given), everyPlanChecked(nodes, given));
      }),
      { numRuns: 300 },
    );
  });

  it('checks itself: the brute force beats greedy on a batch where list scheduling misfires', () => {
    // On 2 slots, one wave of [2, 2, 1, 1, 2] lasts 5; [2, 1, 1] then [2, 2] lasts 4.
    const nodes: PlanNode[] = [2, 2, 1, 1, 2].map((estimateMs, index) => ({
      index,
      parallelizable: true,
      estimateMs,
    }));
    expect(bruteForce(nodes, { maxConcurrency: 2 })).toMatchObject({ makespan: 4, waves: 2 });
    matchesBruteForce(nodes, 2);
  });
});
