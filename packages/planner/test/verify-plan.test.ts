// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  greedyPlanner,
  orderedPlanner,
  type Plan,
  type PlanNode,
  PlannerError,
  verifyPlan,
  type Wave,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessBatch, anyBatch } from './batch-arbitraries.js';
import { safe, workedExample } from './plan-nodes.js';
import { isValidPlan, keyConflict } from './reference-model.js';

const plan = (...waves: number[][]): Plan => ({
  planner: 'custom',
  waves: waves.map((calls) => ({ calls, open: true })),
});

describe('verifyPlan — pinned', () => {
  it('accepts the seed plan of the worked example', () => {
    expect(verifyPlan(workedExample, greedyPlanner().plan(workedExample))).toEqual([]);
  });

  it('reports missing, duplicate and unknown calls (rule 1)', () => {
    expect(verifyPlan(workedExample, plan([0, 1, 3], [2], [4, 6], [1]))).toEqual([
      'wave 3 holds call 6, which is not in the batch of 6 calls (rule 1)',
      'call 1 is in wave 1 and again in wave 4 (rule 1)',
      'call 5 is in no wave (rule 1)',
    ]);
    expect(verifyPlan([safe(0)], plan([0, 0]))).toEqual([
      'wave 1 lists call 0 after call 0: calls must be ascending',
      'call 0 appears twice in wave 1 (rule 1)',
    ]);
  });

  it('reports empty waves and calls out of order', () => {
    expect(verifyPlan([safe(0), safe(1)], plan([], [1, 0]))).toEqual([
      'wave 1 is empty',
      'wave 2 lists call 0 after call 1: calls must be ascending',
    ]);
  });

  it('reports an unsafe call that does not run alone (rule 2)', () => {
    expect(verifyPlan(workedExample, plan([0, 1, 2, 3, 5], [4]))).toEqual([
      'call 2 is not concurrency-safe but shares wave 1 with calls 0, 1, 3, 5 (rule 2)',
    ]);
  });

  it('reports two conflicting calls in one wave (rule 3)', () => {
    expect(verifyPlan(workedExample, plan([0, 1, 3, 4, 5], [2]))).toEqual([
      'calls 0 and 4 share wave 1 but conflict on a (write) / a (write) (rule 3)',
    ]);
  });

  it('reports a later conflicting call that runs first (rule 4), hierarchical keys included', () => {
    const nodes: PlanNode[] = [
      { index: 0, parallelizable: true, access: [{ key: 'fs:/a', mode: 'write' }] },
      { index: 1, parallelizable: true, access: [{ key: 'fs:/a/b.txt', mode: 'read' }] },
    ];
    expect(verifyPlan(nodes, plan([1], [0]))).toEqual([
      'call 1 runs in wave 1, before earlier call 0 in wave 2, but they conflict on fs:/a (write) / fs:/a/b.txt (read) (rule 4)',
    ]);
  });

  it('checks rule 5 only when asked: the seed plan lets Grep(*) cross Edit(c)', () => {
    const seedPlan = greedyPlanner().plan(workedExample);
    expect(verifyPlan(workedExample, seedPlan, { ordered: false })).toEqual([]);
    expect(verifyPlan(workedExample, seedPlan, { ordered: true })).toEqual([
      'call 5 (wave 1) does not run after call 2 (wave 2), which is not concurrency-safe (rule 5)',
    ]);
  });

  it('reports a plan without waves', () => {
    expect(verifyPlan([], { planner: 'custom' } as unknown as Plan)).toEqual([
      'the plan has no `waves` array',
    ]);
  });

  it('throws a PlannerError for malformed nodes', () => {
    expect(() => verifyPlan([safe(1)], plan([0]))).toThrow(PlannerError);
  });
});

/** A plan from one wave label per call (labels need not be contiguous; empty waves dropped). */
const planFromLabels = (labels: readonly number[]): Plan => {
  const waves: Wave[] = [...new Set(labels)]
    .sort((a, b) => a - b)
    .map((w) => ({
      calls: labels.flatMap((label, call) => (label === w ? [call] : [])),
      open: true,
    }));
  return { planner: 'custom', waves };
};

describe('verifyPlan — agrees with the pairwise checker', () => {
  it('reports nothing exactly when the plan keeps the rules, on random plans', () => {
    let valid = 0;
    let invalid = 0;
    const batchAndPlan = fc.tuple(anyBatch(7), fc.boolean()).chain(([nodes, ordered]) =>
      fc
        .array(fc.integer({ min: 0, max: Math.max(0, nodes.length - 1) }), {
          minLength: nodes.length,
          maxLength: nodes.length,
        })
        .map((labels) => ({ nodes, ordered, plan: planFromLabels(labels) })),
    );
    fc.assert(
      fc.property(batchAndPlan, ({ nodes, ordered, plan }) => {
        const expected = isValidPlan(nodes, plan, ordered);
        if (expected) valid++;
        else invalid++;
        assert.equal(verifyPlan(nodes, plan, { ordered }).length === 0, expected);
      }),
      { numRuns: 4000 },
    );
    // Both sides of the equivalence were exercised.
    expect(valid).toBeGreaterThan(100);
    expect(invalid).toBeGreaterThan(100);
  });
});

/** A greedy plan, as mutable arrays of calls. */
const greedyWaves = (nodes: readonly PlanNode[]) =>
  greedyPlanner()
    .plan(nodes)
    .waves.map((wave) => [...wave.calls]);
const asPlan = (waves: readonly number[][]): Plan => ({
  planner: 'mutated',
  waves: waves.map((calls) => ({ calls, open: true })),
});
const waveIndexOf = (waves: readonly number[][], call: number) =>
  waves.findIndex((w) => w.includes(call));

/** A call i and, among its conflicting earlier calls, the one in the latest wave. */
const latestConflict = (nodes: readonly PlanNode[], waves: readonly number[][], i: number) => {
  let best = -1;
  for (let j = 0; j < i; j++) {
    if (
      keyConflict(nodes[j]!, nodes[i]!) &&
      (best === -1 || waveIndexOf(waves, j) > waveIndexOf(waves, best))
    ) {
      best = j;
    }
  }
  return best;
};

/** One of the calls that conflict with an earlier call, the `pick`-th modulo their number. */
const pickWithEarlierConflict = (nodes: readonly PlanNode[], pick: number): number => {
  const found = nodes.flatMap((node) =>
    nodes.some((other) => other.index < node.index && keyConflict(other, node)) ? [node.index] : [],
  );
  fc.pre(found.length > 0);
  return found[pick % found.length]!;
};

describe('verifyPlan — catches mutated valid plans', () => {
  const withCall = anyBatch(25).chain((nodes) =>
    fc.nat({ max: Math.max(0, nodes.length - 1) }).map((call) => ({ nodes, call })),
  );

  it('reports a dropped call', () => {
    fc.assert(
      fc.property(withCall, ({ nodes, call }) => {
        fc.pre(nodes.length > 0);
        const waves = greedyWaves(nodes)
          .map((calls) => calls.filter((c) => c !== call))
          .filter((calls) => calls.length > 0);
        expect(verifyPlan(nodes, asPlan(waves))).toContain(`call ${call} is in no wave (rule 1)`);
      }),
      { numRuns: 1000 },
    );
  });

  it('reports a call placed twice', () => {
    fc.assert(
      fc.property(withCall, fc.nat(), ({ nodes, call }, pick) => {
        fc.pre(nodes.length > 0);
        const waves = greedyWaves(nodes);
        const target = waves[pick % waves.length]!;
        target.push(call);
        target.sort((a, b) => a - b);
        const violations = verifyPlan(nodes, asPlan(waves));
        assert.equal(
          violations.some((v) => v.startsWith(`call ${call} `) && v.endsWith('(rule 1)')),
          true,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('reports a call the batch does not have', () => {
    fc.assert(
      fc.property(anyBatch(25), (nodes) => {
        fc.pre(nodes.length > 0);
        const waves = greedyWaves(nodes);
        waves[0]!.push(nodes.length);
        expect(verifyPlan(nodes, asPlan(waves))).toContain(
          `wave 1 holds call ${nodes.length}, which is not in the batch of ${nodes.length} calls (rule 1)`,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('reports an unsafe call merged into another wave', () => {
    fc.assert(
      fc.property(anyBatch(25), fc.nat(), fc.nat(), (nodes, pickCall, pick) => {
        // One of the batch's calls that are not concurrency-safe (picking among them, rather
        // than skipping batches whose random call is safe, spares most of the generation).
        const unsafeCalls = nodes.flatMap((node) => (node.parallelizable ? [] : [node.index]));
        fc.pre(nodes.length > 1 && unsafeCalls.length > 0);
        const call = unsafeCalls[pickCall % unsafeCalls.length]!;
        const waves = greedyWaves(nodes);
        const own = waveIndexOf(waves, call);
        const others = waves.map((_, w) => w).filter((w) => w !== own);
        const into = others[pick % others.length]!;
        waves[into] = [...waves[into]!, call].sort((a, b) => a - b);
        waves.splice(own, 1);
        const violations = verifyPlan(nodes, asPlan(waves));
        assert.equal(
          violations.some((v) =>
            v.startsWith(`call ${call} is not concurrency-safe but shares wave`),
          ),
          true,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('reports two conflicting calls merged into one wave (rule 3)', () => {
    fc.assert(
      fc.property(anyBatch(25), fc.nat(), (nodes, pick) => {
        const call = pickWithEarlierConflict(nodes, pick);
        const waves = greedyWaves(nodes);
        const earlier = latestConflict(nodes, waves, call);
        const into = waveIndexOf(waves, earlier);
        const from = waveIndexOf(waves, call);
        waves[into] = [...waves[into]!, ...waves[from]!].sort((a, b) => a - b);
        waves.splice(from, 1);
        const shared = new RegExp(
          `^calls \\d+ and ${call} share wave ${into + 1} but conflict on .* \\(rule 3\\)$`,
        );
        assert.equal(
          verifyPlan(nodes, asPlan(waves)).some((v) => shared.test(v)),
          true,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('reports a later conflicting call swapped ahead of the earlier one (rule 4)', () => {
    fc.assert(
      fc.property(anyBatch(25), fc.nat(), (nodes, pick) => {
        const call = pickWithEarlierConflict(nodes, pick);
        const waves = greedyWaves(nodes);
        const earlier = latestConflict(nodes, waves, call);
        const a = waveIndexOf(waves, earlier);
        const b = waveIndexOf(waves, call);
        [waves[a], waves[b]] = [waves[b]!, waves[a]!];
        const ahead = new RegExp(
          `^call ${call} runs in wave ${a + 1}, before earlier call \\d+ in wave \\d+, .*\\(rule 4\\)$`,
        );
        assert.equal(
          verifyPlan(nodes, asPlan(waves)).some((v) => ahead.test(v)),
          true,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('reports calls listed out of order in a wave', () => {
    fc.assert(
      fc.property(anyBatch(25), fc.nat(), (nodes, pick) => {
        const waves = greedyWaves(nodes);
        const crowded = waves.flatMap((calls, w) => (calls.length > 1 ? [w] : []));
        fc.pre(crowded.length > 0);
        const w = crowded[pick % crowded.length]!;
        const wave = waves[w]!.reverse();
        expect(verifyPlan(nodes, asPlan(waves))).toContain(
          `wave ${w + 1} lists call ${wave[1]} after call ${wave[0]}: calls must be ascending`,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('reports, when ordered, a call moved ahead of an unsafe call before it (rule 5)', () => {
    const withBarrier = accessBatch(25).chain((nodes) =>
      fc.tuple(fc.nat(), fc.nat()).map(([pickBarrier, pick]) => ({ nodes, pickBarrier, pick })),
    );
    fc.assert(
      fc.property(withBarrier, ({ nodes, pickBarrier, pick }) => {
        // One of the calls that are not concurrency-safe and have a call after them.
        const barriers = nodes.flatMap((node) =>
          !node.parallelizable && node.index < nodes.length - 1 ? [node.index] : [],
        );
        fc.pre(barriers.length > 0);
        const barrier = barriers[pickBarrier % barriers.length]!;
        const moved = barrier + 1 + (pick % (nodes.length - barrier - 1));
        const waves = orderedPlanner()
          .plan(nodes)
          .waves.map((wave) => wave.calls.filter((c) => c !== moved))
          .filter((calls) => calls.length > 0);
        const at = waveIndexOf(waves, barrier);
        waves.splice(at, 0, [moved]);
        expect(verifyPlan(nodes, asPlan(waves), { ordered: true })).toContain(
          `call ${moved} (wave ${at + 1}) does not run after call ${barrier} (wave ${at + 2}), which is not concurrency-safe (rule 5)`,
        );
      }),
      { numRuns: 1000 },
    );
  });
});
