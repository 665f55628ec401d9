// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  dependencies,
  edgesOf,
  explainPlan,
  greedyPlanner,
  orderedPlanner,
  type Plan,
  type PlanNode,
  PlannerError,
  sequentialPlanner,
  simulateEager,
  verifyPlan,
  verifySchedule,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyBatch } from './batch-arbitraries.js';
import { closure, referenceWaits } from './dependency-reference.js';
import { referenceEdges, withEdges } from './edge-arbitraries.js';
import { workBudgeted } from './optimal-planner-batches.js';
import { safe, unsafe } from './plan-nodes.js';

const edged = withEdges(anyBatch(20));
const waveOf = (plan: Plan): number[] => {
  const of: number[] = [];
  plan.waves.forEach((wave, w) => {
    for (const call of wave.calls) of[call] = w;
  });
  return of;
};
/** The edges a plan breaks, checked plainly: the later call must be in a later wave. */
const brokenEdges = (nodes: readonly PlanNode[], plan: Plan) => {
  const of = waveOf(plan);
  return referenceEdges(nodes).filter(([earlier, later]) => of[earlier]! >= of[later]!);
};

describe('ordering edges — planners', () => {
  const planners = [
    greedyPlanner(),
    orderedPlanner(),
    sequentialPlanner(),
    workBudgeted(20_000),
  ] as const;
  for (const planner of planners) {
    it(`${planner.name}: every call runs in a later wave than each call it follows`, () => {
      fc.assert(
        fc.property(edged, (nodes) => {
          const plan = planner.plan(nodes, { maxConcurrency: 3 });
          assert.deepEqual(brokenEdges(nodes, plan), []);
          assert.deepEqual(verifyPlan(nodes, plan, { ordered: planner.keepsOrder === true }), []);
        }),
        { numRuns: planner.name === 'optimal' ? 300 : 1000 },
      );
    });
  }

  it('greedy: an edge moves a call that would share wave 1 to the wave after its prerequisite', () => {
    // Read(a) Read(b) Edit(c) Grep(*) Read(a) Stat(*), and Stat must follow Edit (call 2).
    const nodes: PlanNode[] = [
      safe(0, 'a'),
      safe(1, 'b'),
      unsafe(2),
      safe(3),
      safe(4, 'a'),
      { ...safe(5), after: [2] },
    ];
    expect(
      greedyPlanner()
        .plan(nodes)
        .waves.map((wave) => wave.calls),
    ).toEqual([[0, 1, 3], [2], [4, 5]]);
    const { reason, edges } = explainPlan(nodes, greedyPlanner().plan(nodes))[5]!;
    expect(reason).toBe('waits for call 2: `after`');
    expect(edges).toEqual([{ call: 2, source: 'after' }]);
  });

  it('a call that follows every earlier call goes after the latest wave, and says why', () => {
    const nodes: PlanNode[] = [
      safe(0, 'a'),
      safe(1, 'a'),
      { ...safe(2), afterPrevious: 'after-previous' },
      safe(3),
    ];
    const plan = greedyPlanner().plan(nodes);
    expect(plan.waves.map((wave) => wave.calls)).toEqual([[0, 3], [1], [2]]);
    expect(explainPlan(nodes, plan)[2]!.reason).toBe(
      'waits for call 1: `after-previous`; follows every earlier call (`after-previous`)',
    );
  });

  it('refuses an edge to a call that is not earlier, naming the field and the value', () => {
    const forward: PlanNode[] = [{ ...safe(0), after: [1] }, safe(1)];
    expect(() => greedyPlanner().plan(forward)).toThrow(PlannerError);
    expect(() => greedyPlanner().plan(forward)).toThrow(
      'Expected `nodes[0].after[0]` to be an earlier call (an integer from 0 to -1), got `1` (number)',
    );
    const self: PlanNode[] = [safe(0), { ...safe(1), after: [1] }];
    expect(() => dependencies(self)).toThrow('`nodes[1].after[0]` to be an earlier call');
    const source = [{ ...safe(0), afterPrevious: 'soon' }] as unknown as PlanNode[];
    expect(() => verifyPlan(source, { planner: 'x', waves: [] })).toThrow(
      "Expected `nodes[0].afterPrevious` to be 'after-previous' or 'wait_for_previous'",
    );
  });

  it('verifyPlan reports a broken edge', () => {
    const nodes: PlanNode[] = [safe(0), { ...safe(1), after: [0] }];
    const plan: Plan = { planner: 'x', waves: [{ calls: [0, 1], open: true }] };
    expect(verifyPlan(nodes, plan)).toContain(
      'call 1 (wave 1) does not run after call 0 (wave 1), which it follows by an edge (`after`)',
    );
  });
});

describe('ordering edges — eager scheduling', () => {
  it('dependencies wait for exactly the rules and the edges, directly or through others', () => {
    fc.assert(
      fc.property(edged, (nodes) => {
        const reference = referenceWaits(nodes).map((waits, later) => [
          ...new Set([
            ...waits,
            ...referenceEdges(nodes)
              .filter(([, to]) => to === later)
              .map(([from]) => from),
          ]),
        ]);
        assert.deepEqual(closure(dependencies(nodes)), closure(reference));
      }),
      { numRuns: 1000 },
    );
  });

  it('simulateEager starts a call only after every call it follows has ended', () => {
    const timed = edged.map((nodes) =>
      nodes.map((node) => ({ ...node, estimateMs: Math.max(1, node.estimateMs ?? 1) })),
    );
    fc.assert(
      fc.property(timed, fc.integer({ min: 1, max: 4 }), (nodes, maxConcurrency) => {
        const schedule = simulateEager(nodes, { maxConcurrency });
        for (const [earlier, later] of referenceEdges(nodes)) {
          assert.ok(
            schedule.startMs[later]! >= schedule.endMs[earlier]!,
            `expected schedule.startMs[later] (${schedule.startMs[later]!}) >= schedule.endMs[earlier] (${schedule.endMs[earlier]!})`,
          );
        }
        assert.deepEqual(verifySchedule(nodes, schedule, { maxConcurrency }), []);
      }),
      { numRuns: 500 },
    );
  });

  it('verifySchedule reports a call that starts before a call it follows ends', () => {
    const nodes: PlanNode[] = [safe(0), { ...safe(1), afterPrevious: 'wait_for_previous' }];
    expect(verifySchedule(nodes, { startMs: [0, 1], endMs: [2, 3] })).toEqual([
      'call 1 starts before call 0 ends, but follows it by an edge (`wait_for_previous`): calls 0 [0, 2) and 1 [1, 3)',
    ]);
  });
});

describe('ordering edges — explanations', () => {
  it('name every edge of every call, in the reason and in `edges`', () => {
    fc.assert(
      fc.property(edged, fc.constantFrom(greedyPlanner(), orderedPlanner()), (nodes, planner) => {
        const explanations = explainPlan(nodes, planner.plan(nodes));
        const pairs = referenceEdges(nodes);
        for (const { index, reason, edges } of explanations) {
          const mine = pairs.filter(([, later]) => later === index);
          assert.deepEqual(
            edges ?? [],
            mine.map(([call, , source]) => ({ call, source })),
          );
          for (const [call, , source] of mine) {
            const named =
              reason.includes(`waits for call ${call}: \`${source}\``) ||
              (source === 'after'
                ? new RegExp(`follows calls? (\\d+, )*${call}(, \\d+)* \\(\`after\`\\)`).test(
                    reason,
                  )
                : reason.includes(`follows every earlier call (\`${source}\`)`));
            assert.equal(named, true, `${reason} names call ${call} (${source})`);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('edgesOf lists the `after` calls, then every earlier call for afterPrevious', () => {
    expect(edgesOf({ ...safe(3), after: [2, 0, 2] })).toEqual([
      { call: 0, source: 'after' },
      { call: 2, source: 'after' },
    ]);
    expect(edgesOf({ ...unsafe(2), after: [1], afterPrevious: 'wait_for_previous' })).toEqual([
      { call: 0, source: 'wait_for_previous' },
      { call: 1, source: 'after' },
    ]);
  });
});
