// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  DEFAULT_MAX_EXPANSIONS,
  greedyPlanner,
  makespan,
  optimalPlanner,
  verifyPlan,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batch, cap, safeBatch, workBudgeted } from './optimal-planner-batches.js';

// The planner reads the clock `performance.now`; here it is a virtual clock that the test drives.
let now = 0;
let tick = 0;
const virtualClock = (msPerReading: number) => {
  now = 0;
  tick = msPerReading;
  vi.spyOn(performance, 'now').mockImplementation(() => {
    now += tick;
    return now;
  });
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('optimalPlanner — the work budget decides, the time budget only caps', () => {
  it('plans the same whether the clock stands still or races, while the time budget is not reached', () => {
    fc.assert(
      fc.property(
        safeBatch(10, 16),
        cap,
        fc.integer({ min: 0, max: 3000 }),
        (nodes, maxConcurrency, steps) => {
          const planner = workBudgeted(steps);
          virtualClock(0);
          const still = planner.plan(nodes, { maxConcurrency });
          virtualClock(1); // a machine a thousand times slower: 1 ms per clock reading
          const racing = planner.plan(nodes, { maxConcurrency });
          assert.deepEqual(racing, still);
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);

  it('stops at the time budget when the clock reaches it first, still valid and no worse than greedy', () => {
    let unproven = 0;
    fc.assert(
      fc.property(safeBatch(12, 16), cap, (nodes, maxConcurrency) => {
        virtualClock(5); // every reading 5 ms later: the 50 ms budget is gone after 10 readings
        const plan = optimalPlanner({ maxExpansions: Number.POSITIVE_INFINITY }).plan(nodes, {
          maxConcurrency,
        });
        vi.restoreAllMocks();
        if (plan.proven !== true) unproven++;
        const greedy = greedyPlanner().plan(nodes);
        assert.deepEqual(verifyPlan(nodes, plan), []);
        assert.ok(
          makespan(nodes, plan, { maxConcurrency }) <= makespan(nodes, greedy, { maxConcurrency }),
        );
      }),
      { numRuns: 100 },
    );
    expect(unproven).toBeGreaterThan(0);
  }, 60_000);

  it('never loses to greedy (makespan, then waves) whichever deadline the clock passes first', () => {
    // 60 ms per reading stops the conflict graph at its first row, 5 and 13 ms stop the graph
    // or the heuristics part way, 0.5 and 0.01 ms the heuristics or the exact search.
    const msPerReading = fc.constantFrom(0.01, 0.5, 5, 13, 60);
    fc.assert(
      fc.property(
        fc.oneof(batch(0, 64), safeBatch(12, 40)),
        fc.integer({ min: 1, max: 8 }),
        msPerReading,
        (nodes, maxConcurrency, tick) => {
          virtualClock(tick);
          const plan = optimalPlanner({ maxExpansions: Number.POSITIVE_INFINITY }).plan(nodes, {
            maxConcurrency,
          });
          vi.restoreAllMocks();
          const greedy = greedyPlanner().plan(nodes);
          const time = makespan(nodes, plan, { maxConcurrency });
          const greedyTime = makespan(nodes, greedy, { maxConcurrency });
          assert.deepEqual(verifyPlan(nodes, plan), []);
          assert.ok(time <= greedyTime, `expected time (${time}) <= greedyTime (${greedyTime})`);
          if (time === greedyTime)
            assert.ok(
              plan.waves.length <= greedy.waves.length,
              `expected plan.waves.length (${plan.waves.length}) <= greedy.waves.length (${greedy.waves.length})`,
            );
        },
      ),
      { numRuns: 400 },
    );
  }, 60_000);

  it('has a finite default work budget', () => {
    expect(Number.isInteger(DEFAULT_MAX_EXPANSIONS)).toBe(true);
    expect(DEFAULT_MAX_EXPANSIONS).toBeGreaterThan(0);
  });
});
