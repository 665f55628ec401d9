import { greedyPlanner, makespan, orderedPlanner, type PlanNode } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulateSchedule } from '../src/simulate/simulate-schedule.js';

const batch = fc
  .array(
    fc.record({
      parallelizable: fc.boolean(),
      key: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
      estimateMs: fc.double({ min: 0.1, max: 500, noNaN: true }),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((calls): PlanNode[] =>
    calls.map(({ parallelizable, key, estimateMs }, index) => ({
      index,
      parallelizable,
      estimateMs,
      ...(key === undefined ? {} : { resourceKey: key }),
    })),
  );

describe('simulateSchedule', () => {
  it('ends exactly at the planner package makespan, under the cap, waves one after another', () => {
    fc.assert(
      fc.property(batch, fc.integer({ min: 1, max: 6 }), fc.boolean(), (nodes, cap, ordered) => {
        const plan = (ordered ? orderedPlanner() : greedyPlanner()).plan(nodes);
        const schedule = simulateSchedule(nodes, plan, { maxConcurrency: cap });
        expect(schedule.map((entry) => entry.call).sort((a, b) => a - b)).toEqual(
          nodes.map((node) => node.index),
        );
        const end = Math.max(...schedule.map((entry) => entry.endMs));
        expect(end).toBe(makespan(nodes, plan, { maxConcurrency: cap }));
        for (const entry of schedule) {
          expect(entry.lane).toBeLessThan(cap);
          expect(entry.endMs - entry.startMs).toBeCloseTo(nodes[entry.call]!.estimateMs!, 9);
        }
        // Calls on one lane never overlap; a wave starts when the one before has ended.
        for (const a of schedule) {
          for (const b of schedule) {
            if (a === b) continue;
            if (a.wave === b.wave && a.lane === b.lane) {
              expect(a.endMs <= b.startMs + 1e-9 || b.endMs <= a.startMs + 1e-9).toBe(true);
            }
            if (a.wave < b.wave) expect(b.startMs).toBeGreaterThanOrEqual(a.endMs - 1e-9);
          }
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('starts the calls of a wave in ascending order as slots free up', () => {
    const nodes: PlanNode[] = [5, 1, 1, 1, 4].map((estimateMs, index) => ({
      index,
      parallelizable: true,
      estimateMs,
    }));
    const schedule = simulateSchedule(nodes, greedyPlanner().plan(nodes), { maxConcurrency: 2 });
    expect(schedule.map(({ call, lane, startMs, endMs }) => [call, lane, startMs, endMs])).toEqual([
      [0, 0, 0, 5],
      [1, 1, 0, 1],
      [2, 1, 1, 2],
      [3, 1, 2, 3],
      [4, 1, 3, 7],
    ]);
  });
});
