import { explainPlan, greedyPlanner, type PlanNode, PlannerError } from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';

// Named limits in the plan explanation: which limits a call counts against, and which ones its
// wave needs more of than their capacity (so it may wait for them behind others of its wave).

const keyless = (index: number): PlanNode => ({ index, parallelizable: true });
const writes = (index: number, key: string): PlanNode => ({
  index,
  parallelizable: true,
  access: [{ key, mode: 'write' }],
});

describe('explainPlan — named limits', () => {
  it('names the limits a call counts against and the waits its wave may cause', () => {
    // One wave of three calls: `api` needs 2 + 4 = 6 of 4, `db` needs 1 of 2.
    const nodes = [keyless(0), keyless(1), keyless(2)];
    const explanations = explainPlan(nodes, greedyPlanner().plan(nodes), {
      limits: {
        capacities: { api: 4, db: 2 },
        weights: [{ api: 2 }, { api: 4, db: 1 }, undefined],
      },
    });
    expect(explanations.map((e) => e.reason)).toEqual([
      'keyless: joins the earliest open wave; counts against `api` (2 of 4); may wait for limit `api`: its wave needs 6 of 4',
      'keyless: joins the earliest open wave; counts against `api` (4 of 4), `db` (1 of 2); may wait for limit `api`: its wave needs 6 of 4',
      'keyless: joins the earliest open wave',
    ]);
    expect(explanations[1]!.limits).toEqual([
      { name: 'api', weight: 4, capacity: 4 },
      { name: 'db', weight: 1, capacity: 2 },
    ]);
    expect(explanations[1]!.limitWaits).toEqual([{ name: 'api', needed: 6, capacity: 4 }]);
    expect(explanations[2]!.limits).toBeUndefined();
    expect(explanations[2]!.limitWaits).toBeUndefined();
  });

  it('adds up the weights per wave: calls the plan puts in different waves never add up', () => {
    // Both write `a`: two waves, each needing 3 of 4.
    const nodes = [writes(0, 'a'), writes(1, 'a')];
    const explanations = explainPlan(nodes, greedyPlanner().plan(nodes), {
      limits: { capacities: { api: 4 }, weights: [{ api: 3 }, { api: 3 }] },
    });
    expect(explanations.map((e) => e.wave)).toEqual([0, 1]);
    expect(explanations[1]!.reason).toBe(
      'waits for call 0 on key a (write); counts against `api` (3 of 4)',
    );
    expect(explanations.map((e) => e.limitWaits)).toEqual([undefined, undefined]);
  });

  it('keeps the other parts of the reason: edges, then limits', () => {
    const nodes: PlanNode[] = [keyless(0), keyless(1), { ...keyless(2), after: [0] }];
    const explanations = explainPlan(nodes, greedyPlanner().plan(nodes), {
      limits: { capacities: { api: 1 }, weights: [undefined, { api: 1 }, { api: 1 }] },
    });
    // Call 2 follows call 0, so it runs in wave 1 with nothing else: `api` fits there.
    expect(explanations[2]!.reason).toBe(
      'waits for call 0: `after`; counts against `api` (1 of 1)',
    );
    expect(explanations[2]!.edges).toEqual([{ call: 0, source: 'after' }]);
  });

  it('counts names without a capacity for nothing', () => {
    const nodes = [keyless(0), keyless(1)];
    const explanations = explainPlan(nodes, greedyPlanner().plan(nodes), {
      limits: { capacities: { api: 1 }, weights: [{ other: 5 }, { other: 5 }] },
    });
    expect(explanations.map((e) => e.limits)).toEqual([undefined, undefined]);
  });

  it('refuses weights that are not one entry per call', () => {
    const nodes = [keyless(0), keyless(1)];
    const explain = () =>
      explainPlan(nodes, greedyPlanner().plan(nodes), {
        limits: { capacities: { api: 1 }, weights: [{ api: 1 }] },
      });
    expect(explain).toThrow(PlannerError);
    expect(explain).toThrow(/`limits.weights` to hold one entry per call \(2\)/);
  });
});
