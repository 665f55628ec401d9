import {
  DEFAULT_BUDGET_MS,
  greedyPlanner,
  makespan,
  optimalPlanner,
  type PlanNode,
  PlannerError,
  verifyPlan,
} from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { workBudgeted } from './optimal-planner-batches.js';

const safe = (index: number, estimateMs?: number, resourceKey?: string): PlanNode => ({
  index,
  parallelizable: true,
  ...(estimateMs === undefined ? {} : { estimateMs }),
  ...(resourceKey === undefined ? {} : { resourceKey }),
});
const unsafe = (index: number, estimateMs?: number): PlanNode => ({
  index,
  parallelizable: false,
  ...(estimateMs === undefined ? {} : { estimateMs }),
});
const calls = (plan: { waves: readonly { calls: readonly number[] }[] }) =>
  plan.waves.map((wave) => wave.calls);

// Limited by work, never by time: `proven` never depends on the machine.
const planner = workBudgeted(10_000_000);

describe('optimalPlanner — plans', () => {
  it('is named optimal and plans an empty batch as no waves, proven', () => {
    expect(planner.name).toBe('optimal');
    expect(planner.plan([])).toEqual({ planner: 'optimal', waves: [], proven: true });
  });

  it('beats list scheduling in model order by splitting a wave (the TSDoc example)', () => {
    // One wave of 2, 2, 1, 1, 2 on 2 slots lasts 5; [2, 1, 1] then [2, 2] lasts 2 + 2.
    const nodes = [2, 2, 1, 1, 2].map((estimate, index) => safe(index, estimate));
    const plan = planner.plan(nodes, { maxConcurrency: 2 });
    expect(calls(plan)).toEqual([
      [0, 2, 3],
      [1, 4],
    ]);
    expect(plan.proven).toBe(true);
    expect(makespan(nodes, plan, { maxConcurrency: 2 })).toBe(4);
    expect(makespan(nodes, greedyPlanner().plan(nodes), { maxConcurrency: 2 })).toBe(5);
  });

  it('puts a short call beside a long one rather than on its key chain', () => {
    // Calls 0 and 2 share key k (0 first); 1 is long. Greedy: [0, 1], [2] → 10 + 10 = 20.
    // Better: [0], [1, 2] → 1 + 10 = 11.
    const nodes = [safe(0, 1, 'k'), safe(1, 10), safe(2, 10, 'k')];
    const plan = planner.plan(nodes, { maxConcurrency: 4 });
    expect(calls(greedyPlanner().plan(nodes))).toEqual([[0, 1], [2]]);
    expect(calls(plan)).toEqual([[0], [1, 2]]);
    expect(makespan(nodes, plan, { maxConcurrency: 4 })).toBe(11);
    expect(plan.proven).toBe(true);
  });

  it('prefers fewer waves at equal makespan', () => {
    // Keyless unit calls on 2 slots: one wave of 4 lasts 2, as do two waves of 2 (1 + 1).
    const nodes = [0, 1, 2, 3].map((index) => safe(index));
    const plan = planner.plan(nodes, { maxConcurrency: 2 });
    expect(calls(plan)).toEqual([[0, 1, 2, 3]]);
  });

  it('counts missing estimates as equal (the default estimate)', () => {
    const nodes = [safe(0), safe(1, undefined, 'k'), safe(2, undefined, 'k'), safe(3)];
    const withDefaults = [safe(0, 1), safe(1, 1, 'k'), safe(2, 1, 'k'), safe(3, 1)];
    expect(planner.plan(nodes, { maxConcurrency: 2 })).toEqual(
      planner.plan(withDefaults, { maxConcurrency: 2 }),
    );
  });

  it('gives each unsafe call a closed wave of its own, in model order where rule 4 allows', () => {
    // The seed's worked example: Read(a) Read(b) Edit(c) Grep Read(a) Stat.
    const nodes = [safe(0, 1, 'a'), safe(1, 1, 'b'), unsafe(2), safe(3), safe(4, 1, 'a'), safe(5)];
    const plan = planner.plan(nodes);
    expect(plan.waves).toEqual([
      { calls: [0, 1, 3, 5], open: true },
      { calls: [2], open: false },
      { calls: [4], open: true },
    ]);
    expect(plan.proven).toBe(true);
  });

  it('keeps a later reader after an earlier writer on an overlapping key (rule 4)', () => {
    const nodes: PlanNode[] = [
      { index: 0, parallelizable: true, access: [{ key: 'fs:/a', mode: 'write' }], estimateMs: 5 },
      { index: 1, parallelizable: true, estimateMs: 5 },
      { index: 2, parallelizable: true, access: [{ key: 'fs:/a/b', mode: 'read' }], estimateMs: 1 },
    ];
    const plan = planner.plan(nodes, { maxConcurrency: 2 });
    expect(verifyPlan(nodes, plan)).toEqual([]);
    expect(calls(plan)).toEqual([[0, 1], [2]]);
  });
});

describe('optimalPlanner — budget', () => {
  // 3, 3, 3 on 2 slots: no plan beats 6, but the lower bound is only 4.5 → 5, so only a
  // search can prove that 6 is optimal.
  const nodes = [3, 3, 3].map((estimate, index) => safe(index, estimate));

  it('proves optimality when the search may run', () => {
    const plan = planner.plan(nodes, { maxConcurrency: 2 });
    expect(plan.proven).toBe(true);
    expect(makespan(nodes, plan, { maxConcurrency: 2 })).toBe(6);
    expect(plan.waves).toHaveLength(1);
  });

  it('says not proven, and still plans validly and no worse than greedy, when the search may not', () => {
    for (const maxExpansions of [0, 1]) {
      const plan = workBudgeted(maxExpansions).plan(nodes, { maxConcurrency: 2 });
      expect(plan.proven).toBe(false);
      expect(verifyPlan(nodes, plan)).toEqual([]);
      expect(makespan(nodes, plan, { maxConcurrency: 2 })).toBeLessThanOrEqual(
        makespan(nodes, greedyPlanner().plan(nodes), { maxConcurrency: 2 }),
      );
    }
  });

  it('proves a plan that meets the lower bound without searching', () => {
    const easy = [2, 2, 2, 2].map((estimate, index) => safe(index, estimate));
    const plan = workBudgeted(0).plan(easy, { maxConcurrency: 2 });
    expect(plan.proven).toBe(true);
    expect(makespan(easy, plan, { maxConcurrency: 2 })).toBe(4);
  });

  it('defaults to a 50 ms budget', () => {
    expect(DEFAULT_BUDGET_MS).toBe(50);
  });
});

describe('optimalPlanner — bad input', () => {
  const rejects = (make: () => unknown, code: string, message: string) => {
    let caught: unknown;
    try {
      make();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PlannerError);
    expect(caught).toMatchObject({ name: 'PlannerError', code, message });
  };

  it.each([
    [{ budgetMs: 0 }, 'Expected `budgetMs` to be a finite number above 0, got `0` (number)'],
    [{ budgetMs: -5 }, 'Expected `budgetMs` to be a finite number above 0, got `-5` (number)'],
    [
      { budgetMs: Number.POSITIVE_INFINITY },
      'Expected `budgetMs` to be a finite number above 0, got `Infinity` (number)',
    ],
    [
      { budgetMs: Number.NaN },
      'Expected `budgetMs` to be a finite number above 0, got `NaN` (number)',
    ],
    [{ budgetMs: '50' }, 'Expected `budgetMs` to be a finite number above 0, got `"50"` (string)'],
    [
      { maxExpansions: -1 },
      'Expected `maxExpansions` to be an integer from 0 and up, or Infinity, got `-1` (number)',
    ],
    [
      { maxExpansions: 2.5 },
      'Expected `maxExpansions` to be an integer from 0 and up, or Infinity, got `2.5` (number)',
    ],
    [null, 'Expected `options` to be an object, got `null` (null)'],
  ])('rejects the options %j when created', (options, message) => {
    rejects(() => optimalPlanner(options as never), 'invalid_options', message);
  });

  it('accepts Infinity expansions and a fractional budget', () => {
    expect(() => optimalPlanner({ budgetMs: 0.5, maxExpansions: Infinity })).not.toThrow();
  });

  it('rejects a bad maxConcurrency when planning', () => {
    rejects(
      () => planner.plan([safe(0)], { maxConcurrency: 0 }),
      'invalid_options',
      'Expected `maxConcurrency` to be an integer from 1 and up, got `0` (number)',
    );
  });

  it('rejects a negative estimate, naming the node', () => {
    rejects(
      () => planner.plan([safe(0, 1), safe(1, -2)]),
      'invalid_nodes',
      'Expected `nodes[1].estimateMs` to be a finite number from 0 and up, got `-2` (number)',
    );
  });
});
