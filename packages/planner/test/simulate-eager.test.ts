// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  type PlanNode,
  PlannerError,
  type Schedule,
  simulateEager,
  verifySchedule,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eagerOptions, eagerScenario, exactScheduleOptions } from './eager-arbitraries.js';
import { isReady, referenceEager } from './eager-reference.js';

const node = (index: number, estimateMs: number, extra: Partial<PlanNode> = {}): PlanNode => ({
  index,
  parallelizable: true,
  estimateMs,
  ...extra,
});

describe('simulateEager — pinned', () => {
  it('starts a call when what it waits for has ended, not when a wave has', () => {
    const nodes = [
      node(0, 30, { resourceKey: 'a' }),
      node(1, 10, { resourceKey: 'b' }),
      node(2, 10, { resourceKey: 'b' }),
    ];
    expect(simulateEager(nodes)).toEqual({ startMs: [0, 0, 10], endMs: [30, 10, 20] });
  });

  it('runs a call that is not concurrency-safe alone, and nothing crosses it', () => {
    const nodes = [node(0, 5), { index: 1, parallelizable: false, estimateMs: 2 }, node(2, 1)];
    expect(simulateEager(nodes, { arrivalMs: [0, 0, 0] })).toEqual({
      startMs: [0, 5, 7],
      endMs: [5, 7, 8],
    });
  });

  it('waits for arrivals and for free slots, in model order or longest first', () => {
    const nodes = [node(0, 4), node(1, 1), node(2, 9), node(3, 2)];
    expect(simulateEager(nodes, { maxConcurrency: 1, arrivalMs: [3, 0, 0, 0] })).toEqual({
      startMs: [10, 0, 1, 14],
      endMs: [14, 1, 10, 16],
    });
    expect(simulateEager(nodes, { maxConcurrency: 2, priority: 'longest-first' })).toEqual({
      startMs: [0, 6, 0, 4],
      endMs: [4, 7, 9, 6],
    });
  });

  it('rejects bad options, naming the field', () => {
    expect(() => simulateEager([node(0, 1)], { arrivalMs: [0, 1] })).toThrow(
      expect.objectContaining({
        code: 'invalid_options',
        message: expect.stringContaining('`arrivalMs`'),
      }),
    );
    expect(() => simulateEager([node(0, 1)], { arrivalMs: [-1] })).toThrow(
      'Expected `arrivalMs[0]` to be a finite number from 0 and up, got `-1` (number)',
    );
    expect(() =>
      simulateEager([node(0, 1)], { priority: 'fastest' as unknown as 'model-order' }),
    ).toThrow(PlannerError);
    expect(() => simulateEager([node(0, -1)])).toThrow(
      expect.objectContaining({ code: 'invalid_nodes' }),
    );
  });
});

describe('simulateEager — properties', () => {
  it('equals the plainly written eager simulator, call by call', () => {
    fc.assert(
      fc.property(eagerScenario(), (scenario) => {
        assert.deepEqual(
          simulateEager(scenario.nodes, eagerOptions(scenario)),
          referenceEager(scenario),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('makes schedules that keep every rule', () => {
    fc.assert(
      fc.property(eagerScenario({ maxLength: 40 }), (scenario) => {
        const schedule = simulateEager(scenario.nodes, eagerOptions(scenario));
        assert.deepEqual(
          verifySchedule(scenario.nodes, schedule, exactScheduleOptions(scenario)),
          [],
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('is work-conserving and honours the priority: no ready call waits while a slot is free or a lower call starts', () => {
    fc.assert(
      fc.property(eagerScenario({ positive: true }), (scenario) => {
        const { nodes, maxConcurrency, priority } = scenario;
        const schedule: Schedule = simulateEager(nodes, eagerOptions(scenario));
        const moments = new Set([...schedule.startMs, ...schedule.endMs, ...scenario.arrivalMs]);
        for (const now of moments) {
          const running = nodes.filter(
            (_, i) => schedule.startMs[i]! <= now && now < schedule.endMs[i]!,
          ).length;
          // Ready at `now` but started later: everything that ran then must fill the slots...
          const waiting = nodes.filter(
            (_, i) =>
              schedule.startMs[i]! > now && isReady(scenario, waitingView(schedule, now), i, now),
          );
          if (waiting.length > 0) assert.equal(running, maxConcurrency);
          // ...and every call started at `now` comes before each of them in priority.
          for (const started of nodes.filter((_, i) => schedule.startMs[i] === now)) {
            for (const held of waiting) {
              const a = started.index;
              const b = held.index;
              const ahead =
                priority === 'longest-first'
                  ? started.estimateMs! > held.estimateMs! ||
                    (started.estimateMs === held.estimateMs && a < b)
                  : a < b;
              assert.equal(ahead, true);
            }
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});

/** The schedule as known at `now`: calls that start later have not run yet. */
function waitingView(schedule: Schedule, now: number): Schedule {
  return {
    startMs: schedule.startMs.map((start) => (start > now ? Number.POSITIVE_INFINITY : start)),
    endMs: schedule.endMs.map((end, i) =>
      schedule.startMs[i]! > now ? Number.POSITIVE_INFINITY : end,
    ),
  };
}
