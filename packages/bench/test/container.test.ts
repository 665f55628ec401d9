import 'reflect-metadata';
import { greedyPlanner, type Planner } from '@toolwaves/planner';
import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { BenchError, benchContainer, PLANNER, plannersModule } from '../src/index.js';
import { compareStrategies } from '../src/simulate/compare-strategies.js';
import { plannerStrategy } from '../src/strategies/planner-strategy.js';
import { resolvePlanners } from '../src/strategies/resolve-planners.js';
import type { BenchWorkload } from '../src/workloads/bench-batch.js';
import { benchBatch, benchWorkload } from './report-fixture.js';

const workload: BenchWorkload = benchWorkload({
  name: 'pair',
  kind: 'seed-model',
  batches: [
    benchBatch([
      { index: 0, parallelizable: true, resourceKey: 'a', estimateMs: 10 },
      { index: 1, parallelizable: true, resourceKey: 'a', estimateMs: 10 },
    ]),
  ],
});

describe('the planner container', () => {
  it('binds the default planners under PLANNER', () => {
    expect(resolvePlanners(benchContainer()).map((planner) => planner.name)).toEqual([
      'greedy',
      'ordered',
      'sequential',
      'optimal',
    ]);
    const container = new Container();
    container.load(plannersModule({ optimalBudgetMs: 5 }));
    expect(resolvePlanners(container)).toHaveLength(4);
    expect(() => benchContainer({ optimalBudgetMs: 0 })).toThrow(
      'Expected `budgetMs` to be a finite number above 0, got `0` (number)',
    );
  });

  it('compares a planner the user binds along with the defaults', () => {
    const container = benchContainer();
    const mine: Planner = {
      name: 'mine',
      plan: (nodes) => ({
        planner: 'mine',
        waves: [...nodes].reverse().map((node) => ({ calls: [node.index], open: false })),
      }),
    };
    container.bind(PLANNER).toConstantValue(mine);
    const planners = resolvePlanners(container);
    expect(planners.map((planner) => planner.name)).toContain('mine');
    const { workloads } = compareStrategies({
      seeds: [[workload]],
      strategies: planners.map((planner) => plannerStrategy(planner)),
    });
    const result = workloads[0]!.batch.find((candidate) => candidate.strategy === 'mine');
    expect(result?.turnMs.median).toBe(20);
    // Reversed order puts the later call first on the same key: rule 4.
    expect(result?.invalidPlans).toBe(1);
    expect(result?.versusGreedy?.median).toBe(1);
  });

  it('refuses an empty container, two planners with one name, and a binding that is no planner', () => {
    expect(() => resolvePlanners(new Container())).toThrow(
      new BenchError({
        code: 'invalid_planners',
        message: 'Expected at least one planner bound under `PLANNER`, got none',
      }),
    );
    const twice = benchContainer();
    twice.bind(PLANNER).toConstantValue(greedyPlanner());
    expect(() => resolvePlanners(twice)).toThrow(
      'Expected planner names to be unique, got `greedy` twice',
    );
    const odd = new Container();
    odd.bind(PLANNER).toConstantValue({ name: 'half' } as unknown as Planner);
    expect(() => resolvePlanners(odd)).toThrow(
      'Expected every binding of `PLANNER` to have a `name` and a `plan` function, got `half`',
    );
  });
});
