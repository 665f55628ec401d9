import type { Plan, Planner } from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { measureScaling, timePlanning } from '../src/simulate/measure-scaling.js';

/** A planner that takes `costs[i]` ms of virtual time on its i-th call (the last cost repeats). */
function slowPlanner(
  name: string,
  costs: readonly number[],
  clock: { now: number },
): Planner & { calls: number } {
  const planner = {
    name,
    calls: 0,
    plan(nodes: readonly { index: number }[]): Plan {
      clock.now += costs[Math.min(planner.calls, costs.length - 1)]!;
      planner.calls++;
      return { planner: name, waves: nodes.map((node) => ({ calls: [node.index], open: false })) };
    },
  };
  return planner;
}

const nodes = [{ index: 0, parallelizable: true }];

describe('timePlanning', () => {
  it('does not time the warm-up run and returns its plan', () => {
    const clock = { now: 0 };
    const planner = slowPlanner('p', [100, 3], clock);
    const { plan, ms } = timePlanning({ planner, nodes, clock: () => clock.now });
    expect(ms).toBe(3);
    expect(plan.planner).toBe('p');
    expect(planner.calls).toBe(2);
  });

  it('repeats fast plannings until minMs and answers the mean', () => {
    const clock = { now: 0 };
    const planner = slowPlanner('p', [1, 2, 4, 2, 2], clock);
    const { ms } = timePlanning({ planner, nodes, clock: () => clock.now, minMs: 10 });
    // Timed runs cost 2, 4, 2, 2 = 10 ms over 4 runs.
    expect(ms).toBe(2.5);
    expect(planner.calls).toBe(5);
  });

  it('answers the median sample, so one slow sample does not count', () => {
    const clock = { now: 0 };
    const planner = slowPlanner('p', [1, 3, 50, 3], clock);
    const { ms } = timePlanning({ planner, nodes, clock: () => clock.now, samples: 3 });
    expect(ms).toBe(3);
  });
});

describe('measureScaling', () => {
  it('times every planner at every size, and skips a planner at larger sizes once over the cap', () => {
    const clock = { now: 0 };
    const fast = slowPlanner('fast', [1], clock);
    // The slow planner's cost grows with the batch: 10 ms per call.
    const slow: Planner = {
      name: 'slow',
      plan(batch) {
        clock.now += 10 * batch.length;
        return { planner: 'slow', waves: [] };
      },
    };
    const sizes: number[] = [];
    const points = measureScaling({
      planners: [fast, slow],
      sizes: [1, 10, 100, 1000],
      nodesFor: (size) =>
        Array.from({ length: size }, (_, index) => ({ index, parallelizable: true })),
      clock: () => clock.now,
      capMs: 150,
      onSize: (size) => sizes.push(size),
    });
    expect(sizes).toEqual([1, 10, 100, 1000]);
    expect(points.filter((point) => point.planner === 'fast').map((point) => point.planMs)).toEqual(
      [1, 1, 1, 1],
    );
    expect(points.filter((point) => point.planner === 'fast').map((point) => point.waves)).toEqual([
      1, 10, 100, 1000,
    ]);
    expect(points.filter((point) => point.planner === 'slow')).toEqual([
      { planner: 'slow', size: 1, planMs: 10, waves: 0 },
      { planner: 'slow', size: 10, planMs: 100, waves: 0 },
      { planner: 'slow', size: 100, planMs: 1000, waves: 0 },
      {
        planner: 'slow',
        size: 1000,
        planMs: null,
        waves: null,
        skipped: 'took 1000 ms at 100 calls (cap 150 ms)',
      },
    ]);
  });
});
