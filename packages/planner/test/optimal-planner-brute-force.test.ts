import { greedyPlanner, makespan, type PlanNode, verifyPlan } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bruteForce, permutations, setPartitions } from './brute-force-plans.js';
import { batch, cap, safeBatch, workBudgeted } from './optimal-planner-batches.js';

// A budget no test run comes near, so `proven` does not depend on the machine's speed.
const planner = workBudgeted(10_000_000);

const matchesBruteForce = (nodes: PlanNode[], maxConcurrency: number) => {
  const plan = planner.plan(nodes, { maxConcurrency });
  const reference = bruteForce(nodes, maxConcurrency);
  expect(verifyPlan(nodes, plan)).toEqual([]);
  expect({ makespan: makespan(nodes, plan, { maxConcurrency }), waves: plan.waves.length }).toEqual(
    { makespan: reference.makespan, waves: reference.waves },
  );
  expect(plan.proven).toBe(true);
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
        expect(verifyPlan(nodes, plan)).toEqual([]);
        expect(time).toBeLessThanOrEqual(greedyTime);
        if (time === greedyTime) expect(plan.waves.length).toBeLessThanOrEqual(greedy.waves.length);
        if (plan.proven) {
          const reference = bruteForce(nodes, maxConcurrency);
          expect({ makespan: time, waves: plan.waves.length }).toEqual(reference);
        }
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it('checks itself: it enumerates every partition once and every order of it', () => {
    // Bell numbers count partitions; Fubini numbers count ordered ones.
    const partitions = [0, 1, 2, 3, 4, 5, 6].map((count) => [...setPartitions(count)]);
    expect(partitions.map((list) => list.length)).toEqual([1, 1, 2, 5, 15, 52, 203]);
    const ordered = partitions.map((list) =>
      list.reduce((sum, groups) => sum + [...permutations(groups.length)].length, 0),
    );
    expect(ordered).toEqual([1, 1, 3, 13, 75, 541, 4683]);
    const keys = partitions[5]!.map((groups) =>
      JSON.stringify(groups.map((group) => [...group].sort()).sort()),
    );
    expect(new Set(keys).size).toBe(52);
    expect(partitions[5]!.every((groups) => groups.flat().sort().join() === '0,1,2,3,4')).toBe(
      true,
    );
  });

  it('checks itself: the brute force beats greedy on a batch where list scheduling misfires', () => {
    // On 2 slots, one wave of [2, 2, 1, 1, 2] lasts 5; [2, 1, 1] then [2, 2] lasts 4.
    const nodes: PlanNode[] = [2, 2, 1, 1, 2].map((estimateMs, index) => ({
      index,
      parallelizable: true,
      estimateMs,
    }));
    expect(bruteForce(nodes, 2)).toMatchObject({ makespan: 4, waves: 2 });
    matchesBruteForce(nodes, 2);
  });
});
