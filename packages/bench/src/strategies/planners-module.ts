import {
  DEFAULT_BUDGET_MS,
  greedyPlanner,
  optimalPlanner,
  orderedPlanner,
  sequentialPlanner,
} from '@toolwaves/planner';
import { ContainerModule } from 'inversify';
import { PLANNER } from './planner-token.js';

/** Options of {@link plannersModule}. */
export interface PlannersModuleOptions {
  /** Time budget of one `plan` call of `optimal`, in ms (default the planner's, 50 ms). */
  readonly optimalBudgetMs?: number;
}

/**
 * An inversify module binding the default planners under {@link PLANNER}: `greedy`,
 * `ordered`, `sequential` and `optimal`.
 *
 * @example
 * ```ts
 * const container = new Container();
 * container.load(plannersModule({ optimalBudgetMs: 20 }));
 * ```
 * @see benchContainer
 */
export function plannersModule(options: PlannersModuleOptions = {}): ContainerModule {
  const budgetMs = options.optimalBudgetMs ?? DEFAULT_BUDGET_MS;
  return new ContainerModule(({ bind }) => {
    bind(PLANNER).toConstantValue(greedyPlanner());
    bind(PLANNER).toConstantValue(orderedPlanner());
    bind(PLANNER).toConstantValue(sequentialPlanner());
    bind(PLANNER).toConstantValue(optimalPlanner({ budgetMs }));
  });
}
