// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  explainPlan,
  greedyPlanner,
  orderedPlanner,
  type Plan,
  type PlanNode,
  PlannerError,
  sequentialPlanner,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyBatch } from './batch-arbitraries.js';
import { safe, workedExample } from './plan-nodes.js';
import { keyConflict } from './reference-model.js';

describe('explainPlan — pinned reasons', () => {
  it('explains the worked example', () => {
    const explanations = explainPlan(workedExample, greedyPlanner().plan(workedExample));
    expect(explanations.map(({ index, wave, reason }) => ({ index, wave, reason }))).toEqual([
      {
        index: 0,
        wave: 0,
        reason: 'no earlier call conflicts with its keys: joins the earliest open wave',
      },
      {
        index: 1,
        wave: 0,
        reason: 'no earlier call conflicts with its keys: joins the earliest open wave',
      },
      { index: 2, wave: 1, reason: 'not concurrency-safe: runs alone' },
      { index: 3, wave: 0, reason: 'keyless: joins the earliest open wave' },
      { index: 4, wave: 2, reason: 'waits for call 0 on key a (write)' },
      { index: 5, wave: 0, reason: 'keyless: joins the earliest open wave' },
    ]);
    expect(explanations[4]!.cause).toEqual({
      kind: 'waits',
      call: 0,
      key: 'a',
      mode: 'write',
      ownKey: 'a',
      ownMode: 'write',
    });
  });

  it('names both keys when they overlap by hierarchy', () => {
    const nodes: PlanNode[] = [
      { index: 0, parallelizable: true, access: [{ key: 'fs:/a', mode: 'write' }] },
      { index: 1, parallelizable: true, access: [{ key: 'fs:/a/b.txt', mode: 'read' }] },
    ];
    expect(explainPlan(nodes, greedyPlanner().plan(nodes))[1]!.reason).toBe(
      'waits for call 0 on key fs:/a (write), which overlaps its key fs:/a/b.txt (read)',
    );
  });

  it('names the barrier in an ordered plan', () => {
    const reasons = explainPlan(workedExample, orderedPlanner().plan(workedExample)).map(
      (e) => e.reason,
    );
    expect(reasons[3]).toBe('stays after call 2, which is not concurrency-safe (rule 5)');
    expect(reasons[4]).toBe('stays after call 2, which is not concurrency-safe (rule 5)');
  });

  it('explains a sequential plan', () => {
    const reasons = explainPlan(workedExample, sequentialPlanner().plan(workedExample)).map(
      (e) => e.reason,
    );
    expect(reasons).toEqual([
      'sequential: one call per wave, in model order',
      'sequential: one call per wave, in model order',
      'not concurrency-safe: runs alone',
      'sequential: one call per wave, in model order',
      'sequential: one call per wave, in model order',
      'sequential: one call per wave, in model order',
    ]);
  });

  it("says when a call sits later than any rule requires (the planner's choice)", () => {
    const plan: Plan = {
      planner: 'custom',
      waves: [
        { calls: [0], open: true },
        { calls: [1], open: true },
      ],
    };
    expect(explainPlan([safe(0), safe(1)], plan)[1]).toEqual({
      index: 1,
      wave: 1,
      reason: 'placed by the planner: no rule keeps it out of wave 1',
      cause: { kind: 'planner-choice', earliest: 0 },
    });
  });

  it('refuses to explain a plan that breaks the rules', () => {
    const broken: Plan = { planner: 'custom', waves: [{ calls: [0], open: true }] };
    expect(() => explainPlan([safe(0), safe(1)], broken)).toThrow(
      expect.objectContaining({
        name: 'PlannerError',
        code: 'invalid_plan',
        message: 'Cannot explain a plan that breaks the rules: call 1 is in no wave (rule 1)',
      }),
    );
    expect(() => explainPlan([safe(0), safe(1)], broken)).toThrow(PlannerError);
  });
});

describe('explainPlan — properties', () => {
  it('gives first-fit plans a reason that holds for every call', () => {
    fc.assert(
      fc.property(anyBatch(), fc.boolean(), (nodes, ordered) => {
        const plan = (ordered ? orderedPlanner() : greedyPlanner()).plan(nodes);
        const waveOf = (call: number) => plan.waves.findIndex((w) => w.calls.includes(call));
        const explanations = explainPlan(nodes, plan);
        assert.deepEqual(
          explanations.map((e) => e.index),
          nodes.map((n) => n.index),
        );
        for (const { index, wave, cause } of explanations) {
          assert.equal(wave, waveOf(index));
          assert.notEqual(cause.kind, 'planner-choice');
          assert.equal(cause.kind === 'unsafe', !nodes[index]!.parallelizable);
          if (cause.kind === 'waits') {
            assert.equal(keyConflict(nodes[cause.call]!, nodes[index]!), true);
            assert.ok(cause.call < index, `expected cause.call (${cause.call}) < index (${index})`);
            assert.ok(waveOf(cause.call) < wave, `expected waveOf(cause.call) < wave (${wave})`);
          }
          if (cause.kind === 'barrier') {
            assert.equal(ordered, true);
            assert.equal(nodes[cause.call]!.parallelizable, false);
            assert.ok(cause.call < index, `expected cause.call (${cause.call}) < index (${index})`);
          }
          if (cause.kind === 'keyless' || cause.kind === 'free') {
            // Nothing held it back: it sits in the first wave (of its stretch, when ordered)
            // that holds no unsafe call.
            const lastBarrier = ordered
              ? Math.max(
                  -1,
                  ...nodes
                    .slice(0, index)
                    .flatMap((n) => (n.parallelizable ? [] : [waveOf(n.index)])),
                )
              : -1;
            const first = plan.waves.findIndex(
              (w, p) => p > lastBarrier && w.calls.every((c) => nodes[c]!.parallelizable),
            );
            assert.equal(wave, first);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});
