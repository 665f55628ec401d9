// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  greedyPlanner,
  lowerBound,
  makespan,
  orderedPlanner,
  type PlanNode,
  sequentialPlanner,
  simulateEager,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bruteForce } from './brute-force-plans.js';
import { eagerScenario } from './eager-arbitraries.js';

const timed = (index: number, estimateMs: number, extra: Partial<PlanNode> = {}): PlanNode => ({
  index,
  parallelizable: true,
  estimateMs,
  ...extra,
});

const end = (endMs: readonly number[]) => Math.max(0, ...endMs);

describe('lowerBound with arrivals — pinned', () => {
  it('is a late call’s arrival plus its estimate, and a chain released by arrivals', () => {
    expect(lowerBound([timed(0, 1), timed(1, 5)], { arrivalMs: [0, 10] })).toBe(15);
    // Call 1 arrives at 4 and must follow call 0 (same key): 4 + 3, then call 2 on the key.
    const chain = [
      timed(0, 2, { resourceKey: 'a' }),
      timed(1, 3, { resourceKey: 'a' }),
      timed(2, 1, { resourceKey: 'a' }),
    ];
    expect(lowerBound(chain, { arrivalMs: [0, 4, 0] })).toBe(8);
  });

  it('counts the work that arrives late: 6 calls of 2 ms arriving at 10 on 3 slots', () => {
    const nodes = Array.from({ length: 7 }, (_, i) => timed(i, 2));
    expect(lowerBound(nodes, { maxConcurrency: 3, arrivalMs: [0, 10, 10, 10, 10, 10, 10] })).toBe(
      14,
    );
  });

  it('bounds schedules that keep rule 5 more tightly: nothing crosses the unsafe call', () => {
    const nodes = [
      timed(0, 10, { resourceKey: 'a' }),
      timed(1, 1, { parallelizable: false }),
      timed(2, 1),
    ];
    // Greedy may run call 2 beside call 0: 11 ms. Keeping rule 5, it waits for call 1: 12 ms.
    expect(lowerBound(nodes)).toBe(11);
    expect(makespan(nodes, greedyPlanner().plan(nodes))).toBe(11);
    expect(lowerBound(nodes, { keepsOrder: true })).toBe(12);
    expect(end(simulateEager(nodes).endMs)).toBe(12);
  });

  it('is not pushed above a plan that meets it by rounding: an 8 ms unsafe call, then three 1 ms calls on 3 slots', () => {
    const nodes = [timed(0, 8, { parallelizable: false }), timed(1, 1), timed(2, 1), timed(3, 1)];
    // 8 ms alone, then the three calls side by side: 9 ms, and nothing does better.
    expect(makespan(nodes, greedyPlanner().plan(nodes), { maxConcurrency: 3 })).toBe(9);
    expect(lowerBound(nodes, { maxConcurrency: 3 })).toBe(9);
    expect(lowerBound(nodes, { maxConcurrency: 3, keepsOrder: true })).toBe(9);
  });

  it('names a bad arrivalMs entry', () => {
    expect(() => lowerBound([timed(0, 1)], { arrivalMs: [Number.NaN] })).toThrow(
      'Expected `arrivalMs[0]` to be a finite number from 0 and up, got `NaN` (number)',
    );
  });
});

describe('lowerBound with arrivals — properties', () => {
  it('is never above the end of an eager schedule, nor of any plan run after the last arrival', () => {
    fc.assert(
      fc.property(eagerScenario({ maxLength: 30 }), (scenario) => {
        const { nodes, arrivalMs, maxConcurrency } = scenario;
        const bound = lowerBound(nodes, { arrivalMs, maxConcurrency });
        const ordered = lowerBound(nodes, { arrivalMs, maxConcurrency, keepsOrder: true });
        assert.ok(bound <= ordered, `expected bound (${bound}) <= ordered (${ordered})`);
        for (const priority of ['model-order', 'longest-first'] as const) {
          const eager = end(simulateEager(nodes, { arrivalMs, maxConcurrency, priority }).endMs);
          assert.ok(ordered <= eager, `expected ordered (${ordered}) <= eager (${eager})`);
        }
        const lastArrival = Math.max(0, ...arrivalMs);
        const options = { maxConcurrency };
        const waves = (plan: Parameters<typeof makespan>[1]) =>
          lastArrival + makespan(nodes, plan, options);
        assert.ok(
          bound <= waves(greedyPlanner().plan(nodes, options)),
          `expected bound (${bound}) <= waves(greedyPlanner().plan(nodes, options))`,
        );
        assert.ok(
          ordered <= waves(orderedPlanner().plan(nodes, options)),
          `expected ordered (${ordered}) <= waves(orderedPlanner().plan(nodes, options))`,
        );
        assert.ok(
          ordered <= waves(sequentialPlanner().plan(nodes, options)),
          `expected ordered (${ordered}) <= waves(sequentialPlanner().plan(nodes, options))`,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('keeping rule 5 with a slot per call, is exactly the end of the eager schedule', () => {
    fc.assert(
      fc.property(eagerScenario({ maxLength: 30 }), (scenario) => {
        const { nodes, arrivalMs } = scenario;
        const maxConcurrency = Math.max(1, nodes.length);
        assert.equal(
          lowerBound(nodes, { arrivalMs, maxConcurrency, keepsOrder: true }),
          end(simulateEager(nodes, { arrivalMs, maxConcurrency }).endMs),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('is never above the best plan, by brute force on small batches, run after the last arrival', () => {
    fc.assert(
      fc.property(eagerScenario({ maxLength: 5 }), (scenario) => {
        const { nodes, arrivalMs, maxConcurrency } = scenario;
        const lastArrival = Math.max(0, ...arrivalMs);
        const best = lastArrival + bruteForce(nodes, { maxConcurrency }).makespan;
        const bestOrdered =
          lastArrival + bruteForce(nodes, { maxConcurrency, ordered: true }).makespan;
        assert.ok(
          lowerBound(nodes, { arrivalMs, maxConcurrency }) <= best,
          `expected lowerBound(nodes, { arrivalMs, maxConcurrency }) <= best (${best})`,
        );
        assert.ok(
          lowerBound(nodes, { arrivalMs, maxConcurrency, keepsOrder: true }) <= bestOrdered,
          `expected lowerBound(nodes, { arrivalMs, maxConcurrency, keepsOrder: true }) <= bestOrdered (${bestOrdered})`,
        );
      }),
      { numRuns: 300 },
    );
  });
});
