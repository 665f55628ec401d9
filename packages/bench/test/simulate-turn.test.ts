import {
  greedyPlanner,
  makespan,
  orderedPlanner,
  type PlanNode,
  simulateEager,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulateTurn } from '../src/simulate/simulate-turn.js';

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

describe('simulateTurn, waves', () => {
  it('ends exactly at the planner package makespan after the start, and keeps the rules', () => {
    fc.assert(
      fc.property(
        batch,
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (nodes, cap, ordered, startMs) => {
          const plan = (ordered ? orderedPlanner() : greedyPlanner()).plan(nodes);
          const { result } = simulateTurn({
            strategy: plan.planner,
            execution: { kind: 'waves', plan, maxConcurrency: cap, startMs },
            actual: nodes,
            arrivalMs: nodes.map(() => startMs),
          });
          const length = makespan(nodes, plan, { maxConcurrency: cap });
          expect(result.turnMs).toBe(startMs + length);
          expect(result.afterStreamMs).toBeCloseTo(length, 9);
          expect([result.violations, result.conflictingOverlaps]).toEqual([0, 0]);
          expect(result.waves).toBe(plan.waves.length);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('simulateTurn, eager', () => {
  it('is the planner package simulateEager on the durations, whatever estimates the strategy saw', () => {
    fc.assert(
      fc.property(
        batch,
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 30, maxLength: 30 }),
        (nodes, cap, gaps) => {
          let now = 0;
          const arrivalMs = nodes.map((_, i) => (now += gaps[i]!));
          // The strategy's nodes carry other estimates: the simulator must not use them.
          const declared = nodes.map((node) => ({ ...node, estimateMs: 1 }));
          const { schedule, result } = simulateTurn({
            strategy: 'eager',
            execution: { kind: 'eager', nodes: declared, arrivalMs, maxConcurrency: cap },
            actual: nodes,
            arrivalMs,
          });
          const expected = simulateEager(nodes, { arrivalMs, maxConcurrency: cap });
          expect(schedule).toEqual(expected);
          expect(result.turnMs).toBe(Math.max(...expected.endMs));
          expect([result.violations, result.conflictingOverlaps]).toEqual([0, 0]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
