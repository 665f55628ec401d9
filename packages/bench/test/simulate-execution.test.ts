import {
  dependencies,
  greedyPlanner,
  makespan,
  orderedPlanner,
  type PlanNode,
  simulateEager,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulateExecution } from '../src/simulate/simulate-execution.js';

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

const durationsOf = (nodes: readonly PlanNode[]) => nodes.map((node) => node.estimateMs!);

describe('simulateExecution, waves', () => {
  it('ends exactly at the planner package makespan, under the cap, waves one after another', () => {
    fc.assert(
      fc.property(batch, fc.integer({ min: 1, max: 6 }), fc.boolean(), (nodes, cap, ordered) => {
        const plan = (ordered ? orderedPlanner() : greedyPlanner()).plan(nodes);
        const { startMs, endMs } = simulateExecution({
          execution: { kind: 'waves', plan, maxConcurrency: cap, startMs: 0 },
          durationsMs: durationsOf(nodes),
        });
        expect(Math.max(...endMs)).toBe(makespan(nodes, plan, { maxConcurrency: cap }));
        nodes.forEach((node, call) => {
          expect(endMs[call]! - startMs[call]!).toBeCloseTo(node.estimateMs!, 9);
        });
        // At most `cap` calls at once; a wave starts when the one before has ended.
        for (const moment of startMs) {
          const running = startMs.filter((s, c) => s <= moment && endMs[c]! > moment).length;
          expect(running).toBeLessThanOrEqual(cap);
        }
        plan.waves.forEach((wave, w) => {
          for (const later of plan.waves.slice(w + 1)) {
            for (const a of wave.calls) {
              for (const b of later.calls) {
                expect(startMs[b]!).toBeGreaterThanOrEqual(endMs[a]! - 1e-9);
              }
            }
          }
        });
      }),
      { numRuns: 1500 },
    );
  });

  it('starts the calls of a wave in ascending order as slots free up, from the start time', () => {
    const nodes: PlanNode[] = [5, 1, 1, 1, 4].map((estimateMs, index) => ({
      index,
      parallelizable: true,
      estimateMs,
    }));
    const schedule = simulateExecution({
      execution: {
        kind: 'waves',
        plan: greedyPlanner().plan(nodes),
        maxConcurrency: 2,
        startMs: 100,
      },
      durationsMs: durationsOf(nodes),
    });
    expect(schedule).toEqual({
      startMs: [100, 100, 101, 102, 103],
      endMs: [105, 101, 102, 103, 107],
    });
  });
});

describe('simulateExecution, dependencies', () => {
  it('starts each call once it is ready and its dependencies ended, lowest index first, under the cap', () => {
    // Call 2 waits for 0; call 3 arrives at 4; the cap is 2.
    const schedule = simulateExecution({
      execution: {
        kind: 'dependencies',
        dependsOn: [[], [], [0], []],
        readyMs: [0, 0, 0, 4],
        maxConcurrency: 2,
      },
      durationsMs: [3, 10, 2, 1],
    });
    // 0: 0–3, 1: 0–10; 2 ready at 3 (0 ended) → 3–5; 3 ready at 4, slot busy until 5 → 5–6.
    expect(schedule).toEqual({ startMs: [0, 0, 3, 5], endMs: [3, 10, 5, 6] });
  });

  it('runs without a cap, and refuses a dependency on a later call', () => {
    expect(
      simulateExecution({
        execution: {
          kind: 'dependencies',
          dependsOn: [[], [], []],
          readyMs: [0, 1, 2],
          maxConcurrency: Number.POSITIVE_INFINITY,
        },
        durationsMs: [5, 5, 5],
      }),
    ).toEqual({ startMs: [0, 1, 2], endMs: [5, 6, 7] });
    expect(() =>
      simulateExecution({
        execution: {
          kind: 'dependencies',
          dependsOn: [[1], []],
          readyMs: [0, 0],
          maxConcurrency: 2,
        },
        durationsMs: [1, 1],
      }),
    ).toThrow('Call 0 depends on call 1, which is not earlier');
  });
});

describe('simulateExecution, eager', () => {
  it('is the planner package simulateEager on the durations, and the dependencies rule with its dependencies', () => {
    fc.assert(
      fc.property(
        batch,
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 30, maxLength: 30 }),
        (nodes, cap, gaps) => {
          let now = 0;
          const arrivalMs = nodes.map((_, i) => (now += gaps[i]!));
          const durationsMs = durationsOf(nodes);
          // The strategy's nodes carry other estimates: the simulator must not use them.
          const declared = nodes.map((node) => ({ ...node, estimateMs: 1 }));
          const eager = simulateExecution({
            execution: { kind: 'eager', nodes: declared, arrivalMs, maxConcurrency: cap },
            durationsMs,
          });
          expect(eager).toEqual(simulateEager(nodes, { arrivalMs, maxConcurrency: cap }));
          const byRule = simulateExecution({
            execution: {
              kind: 'dependencies',
              dependsOn: dependencies(nodes),
              readyMs: arrivalMs,
              maxConcurrency: cap,
            },
            durationsMs,
          });
          for (let call = 0; call < nodes.length; call++) {
            expect(byRule.startMs[call]).toBeCloseTo(eager.startMs[call]!, 6);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
