// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  estimateOf,
  greedyPlanner,
  lowerBound,
  makespan,
  type PlanNode,
  verifyPlan,
} from '@toolwaves/planner';
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
  assert.deepEqual(verifyPlan(nodes, plan), []);
  assert.equal(plan.planner, 'optimal');
  assert.ok(
    lowerBound(nodes, { maxConcurrency }) <= time,
    `expected lowerBound(nodes, { maxConcurrency }) <= time (${time})`,
  );
  assert.ok(time <= greedyTime, `expected time (${time}) <= greedyTime (${greedyTime})`);
  if (time === greedyTime)
    assert.ok(
      plan.waves.length <= greedy.waves.length,
      `expected plan.waves.length (${plan.waves.length}) <= greedy.waves.length (${greedy.waves.length})`,
    );
  return { plan, time };
};

const capped = workBudgeted(20_000);

/**
 * The lower bound, raised to what the batches' estimates allow: every estimate here is a whole
 * number of quarter ms, so every makespan is too; and when the safe calls' estimates are whole,
 * every plan spends the same U on the unsafe calls (each runs alone) and a whole number of ms
 * on the safe ones, so none ends before ceil(bound − U) + U. (Not ceil(bound): with U = 0.25,
 * 31 calls of 1 ms on 3 slots have bound 10.58 yet need 11.25.)
 */
const noPlanEndsBefore = (nodes: readonly PlanNode[], maxConcurrency: number): number => {
  const bound = lowerBound(nodes, { maxConcurrency });
  const safe = nodes.filter((node) => node.parallelizable).map(estimateOf);
  if (!safe.every(Number.isInteger)) return Math.ceil(bound * 4) / 4;
  let unsafe = 0;
  for (const node of nodes) if (!node.parallelizable) unsafe += estimateOf(node);
  return Math.ceil(bound - unsafe) + unsafe;
};

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
          assert.ok(
            time <= noPlanEndsBefore(nodes, maxConcurrency),
            `expected time (${time}) <= noPlanEndsBefore(nodes, maxConcurrency)`,
          );
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
        if (time > bound) assert.equal(plan.proven, false);
        if (plan.proven === false) unproven++;
      }),
      { numRuns: 300 },
    );
    expect(unproven).toBeGreaterThan(0);
  }, 60_000);
});
