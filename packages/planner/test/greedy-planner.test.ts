// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { greedyPlanner, type Plan, type PlanNode, verifyPlan } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accessBatch,
  nestedKeys,
  plainKeyBatch,
  seedBatch,
  slashKeys,
} from './batch-arbitraries.js';
import { bruteForce } from './brute-force-plans.js';
import { reads, safe, unsafe, workedExample, writes } from './plan-nodes.js';
import { isValidPlan, referenceFirstFit, referenceSeedGreedy } from './reference-model.js';

/** `plan` has the waves of `reference` (see {@link referenceSeedGreedy}), open as they are there. */
function assertSeedPlan(plan: Plan, reference: ReturnType<typeof referenceSeedGreedy>): void {
  assert.deepEqual(
    plan.waves.map((w) => w.calls),
    [...reference],
  );
  assert.deepEqual(
    plan.waves.map((w) => w.open),
    reference.open,
  );
}

const calls = (nodes: readonly PlanNode[]) =>
  greedyPlanner()
    .plan(nodes)
    .waves.map((w) => w.calls);

describe('greedyPlanner — the seed, pinned', () => {
  it('is named greedy', () => {
    expect(greedyPlanner().name).toBe('greedy');
    expect(greedyPlanner().plan([]).planner).toBe('greedy');
  });

  it('plans the worked example as [[0,1,3,5],[2],[4]] with wave 2 closed', () => {
    expect(greedyPlanner().plan(workedExample).waves).toEqual([
      { calls: [0, 1, 3, 5], open: true },
      { calls: [2], open: false },
      { calls: [4], open: true },
    ]);
  });

  // The decision table, row by row: the plan of the first k calls is the state after row k.
  it.each([
    [1, [{ calls: [0], open: true }]],
    [2, [{ calls: [0, 1], open: true }]],
    [
      3,
      [
        { calls: [0, 1], open: true },
        { calls: [2], open: false },
      ],
    ],
    [
      4,
      [
        { calls: [0, 1, 3], open: true },
        { calls: [2], open: false },
      ],
    ],
    [
      5,
      [
        { calls: [0, 1, 3], open: true },
        { calls: [2], open: false },
        { calls: [4], open: true },
      ],
    ],
  ])('decision table: after row %i the waves are %j', (rows, expected) => {
    expect(greedyPlanner().plan(workedExample.slice(0, rows)).waves).toEqual(expected);
  });

  it('gives no waves for an empty batch', () => {
    expect(greedyPlanner().plan([]).waves).toEqual([]);
  });

  it('never closes an open wave: a late keyless call still lands in wave 1', () => {
    const nodes = [safe(0, 'a'), safe(1, 'a'), unsafe(2), safe(3, 'a'), unsafe(4), safe(5)];
    expect(calls(nodes)).toEqual([[0, 5], [1], [2], [3], [4]]);
  });

  it('gives an unsafe call a singleton wave born closed: a keyless call after it starts a new wave', () => {
    expect(greedyPlanner().plan([unsafe(0), safe(1)]).waves).toEqual([
      { calls: [0], open: false },
      { calls: [1], open: true },
    ]);
  });

  it('puts the j-th call on a key in the j-th open wave', () => {
    const nodes = [safe(0, 'a'), unsafe(1), safe(2, 'a'), safe(3, 'b'), safe(4, 'a'), safe(5, 'b')];
    expect(calls(nodes)).toEqual([[0, 3], [1], [2, 5], [4]]);
  });
});

describe('greedyPlanner — access lists', () => {
  it('never lets a later reader run before an earlier writer (rule 4)', () => {
    // Wave 1 holds only a read of fs:/a, which a read does not conflict with; joining it would
    // put call 2 before the write of call 1.
    expect(calls([reads(0, 'fs:/a'), writes(1, 'fs:/a'), reads(2, 'fs:/a')])).toEqual([
      [0],
      [1],
      [2],
    ]);
  });

  it('lets reads share a wave, and a keyless call join them', () => {
    expect(calls([reads(0, 'fs:/a'), reads(1, 'fs:/a'), safe(2), reads(3, 'fs:/a/b')])).toEqual([
      [0, 1, 2, 3],
    ]);
  });

  it('serializes a key with its descendants and ancestors, not with a sibling sharing a prefix', () => {
    expect(calls([writes(0, 'fs:/a'), reads(1, 'fs:/a/b.txt'), reads(2, 'fs:/ab')])).toEqual([
      [0, 2],
      [1],
    ]);
    expect(calls([writes(0, 'fs:/a/b.txt'), reads(1, 'fs:/a'), writes(2, 'fs:/')])).toEqual([
      [0],
      [1],
      [2],
    ]);
  });

  it('treats a plain resourceKey as a write', () => {
    expect(calls([safe(0, 'fs:/a'), reads(1, 'fs:/a')])).toEqual([[0], [1]]);
  });
});

describe('greedyPlanner — properties', () => {
  it('equals the seed algorithm written plainly, on seed-model batches (the fast path)', () => {
    fc.assert(
      fc.property(fc.oneof(seedBatch(40), plainKeyBatch(slashKeys, 40)), (nodes) => {
        assertSeedPlan(greedyPlanner().plan(nodes), referenceSeedGreedy(nodes));
      }),
      { numRuns: 3000 },
    );
  });

  it('equals first-fit with access lists written plainly (O(n²) conflict scan)', () => {
    fc.assert(
      fc.property(
        fc.oneof(accessBatch(40), plainKeyBatch([...slashKeys, ...nestedKeys], 40)),
        (nodes) => {
          assert.deepEqual(greedyPlanner().plan(nodes).waves, referenceFirstFit(nodes, false));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps rules 1–4, by verifyPlan and by the pairwise checker', () => {
    fc.assert(
      fc.property(fc.oneof(seedBatch(), accessBatch()), (nodes) => {
        const plan = greedyPlanner().plan(nodes);
        assert.deepEqual(verifyPlan(nodes, plan), []);
        assert.equal(isValidPlan(nodes, plan, false), true);
      }),
      { numRuns: 3000 },
    );
  });

  const minimumWaves = (nodes: readonly PlanNode[]) => {
    const unsafeCount = nodes.filter((node) => !node.parallelizable).length;
    const safe = nodes.filter((node) => node.parallelizable);
    const perKey = new Map<string, number>();
    for (const node of safe) {
      if (node.resourceKey !== undefined) {
        perKey.set(node.resourceKey, (perKey.get(node.resourceKey) ?? 0) + 1);
      }
    }
    return unsafeCount + Math.max(0, ...perKey.values(), safe.length > 0 ? 1 : 0);
  };

  it('uses the fewest waves possible in the seed model: unsafe + max(most calls on one key, any safe ? 1 : 0)', () => {
    fc.assert(
      fc.property(seedBatch(60), (nodes) => {
        assert.equal(greedyPlanner().plan(nodes).waves.length, minimumWaves(nodes));
      }),
      { numRuns: 3000 },
    );
  });

  it('matches the brute-force minimum wave count on small seed-model batches', () => {
    fc.assert(
      fc.property(seedBatch(5), (nodes) => {
        const fewest = bruteForce(nodes).waves;
        assert.equal(greedyPlanner().plan(nodes).waves.length, fewest);
        assert.equal(minimumWaves(nodes), fewest);
      }),
      { numRuns: 300 },
    );
  });
});

describe('greedyPlanner — more waves than a placement first has room for', () => {
  // A placement starts with room for 1 024 waves and doubles it as waves are made: about half
  // the calls here are not concurrency-safe and the rest write one of two keys, so every batch
  // of 2 100 calls or more makes well over 1 024 waves (about 1 600).
  const manyWaves = fc.array(fc.record({ safe: fc.boolean(), key: fc.constantFrom('a', 'b') }), {
    minLength: 2100,
    maxLength: 2600,
  });

  it('equals the seed algorithm written plainly, by plain keys (the fast path) and by access lists', () => {
    fc.assert(
      fc.property(manyWaves, (calls) => {
        const keyed = calls.map(
          ({ safe, key }, index): PlanNode =>
            safe
              ? { index, parallelizable: true, resourceKey: key }
              : { index, parallelizable: false },
        );
        // one write of the same key: the general path, with the same plan
        const listed = calls.map(
          ({ safe, key }, index): PlanNode =>
            safe
              ? { index, parallelizable: true, access: [{ key, mode: 'write' }] }
              : { index, parallelizable: false },
        );
        const reference = referenceSeedGreedy(keyed);
        assert.ok(reference.length > 1024, `${reference.length} waves`);
        for (const nodes of [keyed, listed]) assertSeedPlan(greedyPlanner().plan(nodes), reference);
      }),
      { numRuns: 20 },
    );
  });
});
