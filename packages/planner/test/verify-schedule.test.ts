// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  estimateOf,
  type PlanNode,
  type Schedule,
  simulateEager,
  verifySchedule,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type EagerScenario,
  eagerOptions,
  eagerScenario,
  exactScheduleOptions,
} from './eager-arbitraries.js';
import { isValidSchedule, peakConcurrency } from './eager-reference.js';
import { safe, unsafe, writes } from './plan-nodes.js';
import { keyConflict } from './reference-model.js';

const schedule = (startMs: number[], endMs: number[]): Schedule => ({ startMs, endMs });

describe('verifySchedule — pinned', () => {
  it('accepts a schedule that keeps the rules', () => {
    const nodes = [writes(0, 'fs:/a'), writes(1, 'fs:/a/b'), safe(2)];
    expect(verifySchedule(nodes, schedule([0, 1, 0], [1, 2, 1]), { maxConcurrency: 2 })).toEqual(
      [],
    );
  });

  it('names each broken rule', () => {
    const nodes = [writes(0, 'fs:/a'), writes(1, 'fs:/a/b'), unsafe(2), safe(3)];
    expect(
      verifySchedule(nodes, schedule([0, 0, 3, 2.5], [1, 1, 4, 3.5]), {
        maxConcurrency: 1,
        arrivalMs: [0, 0, 0, 3],
      }),
    ).toEqual([
      'call 3 starts at 2.5 ms, before it arrives at 3 ms',
      'conflicting calls overlap: calls 0 [0, 1) and 1 [0, 1) (rule 3)',
      'call 2 is not concurrency-safe but overlaps another call: calls 2 [3, 4) and 3 [2.5, 3.5) (rule 2)',
      '2 calls run at once from 0 ms, more than `maxConcurrency` 1',
      '2 calls run at once from 3 ms, more than `maxConcurrency` 1',
    ]);
    expect(verifySchedule(nodes, schedule([1, 0, 2, 1.5], [2, 1, 3, 2.5]))).toEqual([
      'call 1 runs before the earlier call 0 it conflicts with: calls 0 [1, 2) and 1 [0, 1) (rule 4)',
      'call 2 is not concurrency-safe but overlaps another call: calls 2 [2, 3) and 3 [1.5, 2.5) (rule 2)',
    ]);
  });

  it('tells crossing from overlapping, and checks durations when asked', () => {
    const nodes: PlanNode[] = [
      { ...safe(0), estimateMs: 1 },
      { ...unsafe(1), estimateMs: 1 },
    ];
    expect(verifySchedule(nodes, schedule([1, 0], [2, 1]), { exactDurations: true })).toEqual([
      'call 1 is not concurrency-safe but call 0 crosses it: calls 0 [1, 2) and 1 [0, 1) (rule 5)',
    ]);
    expect(verifySchedule(nodes, schedule([0, 1], [1, 3]), { exactDurations: true })).toEqual([
      'call 1 runs for 2 ms, not its estimate of 1 ms',
    ]);
  });

  it('checks durations up to floating-point rounding, not beyond', () => {
    // (125.1 + 0.2) - 125.1 is 0.20000000000000284 in doubles: the call still ran for its estimate.
    const nodes: PlanNode[] = [{ ...safe(0), estimateMs: 0.2 }];
    expect(
      verifySchedule(nodes, schedule([125.1], [125.1 + 0.2]), { exactDurations: true }),
    ).toEqual([]);
    expect(verifySchedule(nodes, schedule([125.1], [125.31]), { exactDurations: true })).toEqual([
      'call 0 runs for 0.21000000000000796 ms, not its estimate of 0.2 ms',
    ]);
  });

  it('reports a malformed schedule instead of checking it', () => {
    expect(verifySchedule([safe(0)], schedule([0, 1], [1]))).toEqual([
      "the schedule's `startMs` is not an array of 1 times, one per call",
    ]);
    expect(verifySchedule([safe(0)], schedule([Number.NaN], [1]))).toEqual([
      'call 0 has no finite start time, got NaN',
    ]);
    expect(verifySchedule([safe(0)], schedule([2], [1]))).toEqual([
      'call 0 ends at 1 ms, before it starts at 2 ms',
    ]);
  });
});

/** A valid schedule of a scenario whose calls all take at least 1 ms, and a pick of calls. */
const valid = eagerScenario({ positive: true }).chain((scenario) =>
  fc.record({
    scenario: fc.constant(scenario),
    picks: fc.array(fc.nat(), { minLength: 2, maxLength: 2 }),
  }),
);

const mutate = (
  { startMs, endMs }: Schedule,
  call: number,
  start: number,
  nodes: readonly PlanNode[],
): Schedule => {
  const starts = [...startMs];
  const ends = [...endMs];
  starts[call] = start;
  ends[call] = start + estimateOf(nodes[call]!);
  return { startMs: starts, endMs: ends };
};

/**
 * One pair (j < i) of calls that `keep` accepts: the `pick`-th, modulo their number; fc.pre
 * skips scenarios with none.
 */
const pickPair = (
  scenario: EagerScenario,
  pick: number,
  keep: (j: number, i: number) => boolean,
): [number, number] => {
  const found: [number, number][] = [];
  for (let i = 0; i < scenario.nodes.length; i++) {
    for (let j = 0; j < i; j++) if (keep(j, i)) found.push([j, i]);
  }
  fc.pre(found.length > 0);
  return found[pick % found.length]!;
};

const verify = (scenario: EagerScenario, mutated: Schedule) =>
  verifySchedule(scenario.nodes, mutated, exactScheduleOptions(scenario));

describe('verifySchedule — each kind of violation is detected (mutations of valid schedules)', () => {
  it('conflicting calls made to overlap (rule 3)', () => {
    fc.assert(
      fc.property(valid, ({ scenario, picks }) => {
        const { nodes } = scenario;
        const [j, i] = pickPair(scenario, picks[0]!, (j, i) => keyConflict(nodes[j]!, nodes[i]!));
        const base = simulateEager(nodes, eagerOptions(scenario));
        const mutated = mutate(base, i, base.startMs[j]!, nodes);
        expect(verify(scenario, mutated)).toContainEqual(
          `conflicting calls overlap: calls ${j} [${mutated.startMs[j]}, ${mutated.endMs[j]}) and ${i} [${mutated.startMs[i]}, ${mutated.endMs[i]}) (rule 3)`,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('the later of two conflicting calls moved before the earlier (rule 4)', () => {
    fc.assert(
      fc.property(valid, ({ scenario, picks }) => {
        const { nodes } = scenario;
        const [j, i] = pickPair(scenario, picks[0]!, (j, i) => keyConflict(nodes[j]!, nodes[i]!));
        const base = simulateEager(nodes, eagerOptions(scenario));
        const mutated = mutate(base, i, base.startMs[j]! - estimateOf(nodes[i]!), nodes);
        expect(verify(scenario, mutated).join('\n')).toContain(
          `call ${i} runs before the earlier call ${j} it conflicts with`,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('a call moved over a call that is not concurrency-safe (rule 2)', () => {
    fc.assert(
      fc.property(valid, ({ scenario, picks }) => {
        const { nodes } = scenario;
        const [j, i] = pickPair(
          scenario,
          picks[0]!,
          (j, i) => !nodes[j]!.parallelizable || !nodes[i]!.parallelizable,
        );
        const barrier = nodes[j]!.parallelizable ? i : j;
        const other = barrier === j ? i : j;
        const base = simulateEager(nodes, eagerOptions(scenario));
        const mutated = mutate(base, other, base.startMs[barrier]!, nodes);
        expect(verify(scenario, mutated).join('\n')).toContain(
          `call ${barrier} is not concurrency-safe but overlaps another call`,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('a call moved across a call that is not concurrency-safe (rule 5)', () => {
    fc.assert(
      fc.property(valid, ({ scenario, picks }) => {
        const { nodes } = scenario;
        const [j, i] = pickPair(
          scenario,
          picks[0]!,
          (j, i) => !nodes[j]!.parallelizable || !nodes[i]!.parallelizable,
        );
        const barrier = nodes[j]!.parallelizable ? i : j;
        const base = simulateEager(nodes, eagerOptions(scenario));
        // The later call ends as the earlier starts: no overlap, the wrong order.
        const mutated = mutate(base, i, base.startMs[j]! - estimateOf(nodes[i]!), nodes);
        expect(verify(scenario, mutated).join('\n')).toContain(
          `call ${barrier} is not concurrency-safe but call ${barrier === j ? i : j} crosses it`,
        );
      }),
      { numRuns: 500 },
    );
  });

  it("a cap below the schedule's peak", () => {
    fc.assert(
      fc.property(valid, ({ scenario }) => {
        const base = simulateEager(scenario.nodes, eagerOptions(scenario));
        const peak = peakConcurrency(base);
        fc.pre(peak >= 2);
        const violations = verifySchedule(scenario.nodes, base, {
          arrivalMs: scenario.arrivalMs,
          maxConcurrency: peak - 1,
        });
        expect(violations.join('\n')).toContain(`${peak} calls run at once from`);
      }),
      { numRuns: 500 },
    );
  });

  it('a call started before it arrives, and a call run longer than its estimate', () => {
    fc.assert(
      fc.property(valid, ({ scenario, picks }) => {
        fc.pre(scenario.nodes.length > 0);
        const call = picks[0]! % scenario.nodes.length;
        const base = simulateEager(scenario.nodes, eagerOptions(scenario));
        const arrivalMs = [...scenario.arrivalMs];
        arrivalMs[call] = base.startMs[call]! + 1;
        assert.deepEqual(verify({ ...scenario, arrivalMs }, base), [
          `call ${call} starts at ${base.startMs[call]} ms, before it arrives at ${arrivalMs[call]} ms`,
        ]);
        const endMs = [...base.endMs];
        endMs[call] = base.endMs[call]! + 1;
        expect(verify(scenario, { startMs: base.startMs, endMs })).toContain(
          `call ${call} runs for ${endMs[call]! - base.startMs[call]!} ms, not its estimate of ${estimateOf(scenario.nodes[call]!)} ms`,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('finds a violation exactly when the plainly written check does, on perturbed schedules', () => {
    fc.assert(
      fc.property(
        eagerScenario().chain((scenario) =>
          fc.record({
            scenario: fc.constant(scenario),
            shifts: fc.array(fc.tuple(fc.nat(), fc.integer({ min: -20, max: 20 })), {
              maxLength: 3,
            }),
          }),
        ),
        ({ scenario, shifts }) => {
          const { nodes } = scenario;
          let mutated = simulateEager(nodes, eagerOptions(scenario));
          for (const [pick, shift] of shifts) {
            if (nodes.length === 0) break;
            const call = pick % nodes.length;
            mutated = mutate(mutated, call, Math.max(0, mutated.startMs[call]! + shift), nodes);
          }
          assert.equal(verify(scenario, mutated).length === 0, isValidSchedule(scenario, mutated));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
