import {
  greedyPlanner,
  orderedPlanner,
  type PlanNode,
  sequentialPlanner,
  verifyPlan,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minimalWaveCount } from '../src/simulate/minimal-wave-count.js';

/** Seed-model batches: unsafe, keyed (flat keys from a small pool) or keyless calls. */
const seedBatch = (maxLength: number) =>
  fc
    .array(
      fc.oneof(
        fc.constant({ parallelizable: false }),
        fc.constant({ parallelizable: true }),
        fc
          .constantFrom('a', 'b', 'c', 'd')
          .map((key) => ({ parallelizable: true, resourceKey: key })),
      ),
      { minLength: 0, maxLength },
    )
    .map((calls): PlanNode[] => calls.map((call, index) => ({ index, ...call })));

describe('minimalWaveCount', () => {
  it("counts the seed's worked example as 3 waves", () => {
    const nodes: PlanNode[] = [
      { index: 0, parallelizable: true, resourceKey: 'a' },
      { index: 1, parallelizable: true, resourceKey: 'b' },
      { index: 2, parallelizable: false },
      { index: 3, parallelizable: true },
      { index: 4, parallelizable: true, resourceKey: 'a' },
      { index: 5, parallelizable: true },
    ];
    expect(minimalWaveCount(nodes)).toBe(3);
  });

  it('is 0 for no calls, 1 for keyless safe calls, the unsafe count without safe calls', () => {
    expect(minimalWaveCount([])).toBe(0);
    expect(
      minimalWaveCount([
        { index: 0, parallelizable: true },
        { index: 1, parallelizable: true },
      ]),
    ).toBe(1);
    expect(
      minimalWaveCount([
        { index: 0, parallelizable: false },
        { index: 1, parallelizable: false },
      ]),
    ).toBe(2);
  });

  it('is what greedy reaches on every seed-model batch', () => {
    fc.assert(
      fc.property(seedBatch(40), (nodes) => {
        expect(greedyPlanner().plan(nodes).waves.length).toBe(minimalWaveCount(nodes));
      }),
      { numRuns: 3000 },
    );
  });

  it('is never beaten: no valid plan, by any planner or assigned at random, has fewer waves', () => {
    const planners = [greedyPlanner(), orderedPlanner(), sequentialPlanner()];
    let validRandomPlans = 0;
    fc.assert(
      fc.property(
        seedBatch(7).chain((nodes) =>
          fc.tuple(
            fc.constant(nodes),
            fc.array(fc.nat({ max: 6 }), { minLength: nodes.length, maxLength: nodes.length }),
          ),
        ),
        ([nodes, waveOf]) => {
          for (const planner of planners) {
            expect(planner.plan(nodes).waves.length).toBeGreaterThanOrEqual(
              minimalWaveCount(nodes),
            );
          }
          const used = [...new Set(waveOf)].sort((a, b) => a - b);
          const waves = used.map((w) => ({
            calls: waveOf.flatMap((of, call) => (of === w ? [call] : [])),
            open: true,
          }));
          const plan = { planner: 'random', waves };
          if (verifyPlan(nodes, plan).length === 0) {
            validRandomPlans++;
            expect(waves.length).toBeGreaterThanOrEqual(minimalWaveCount(nodes));
          }
        },
      ),
      { numRuns: 20_000 },
    );
    // The random assignments must have exercised the bound, not only been thrown away.
    expect(validRandomPlans).toBeGreaterThan(1000);
  });
});
