import {
  greedyPlanner,
  optimalPlanner,
  orderedPlanner,
  type Planner,
  sequentialPlanner,
} from '@toolwaves/planner';
import { ContainerModule } from 'inversify';
import { PLANNER } from './planner-token.js';

/** Options of {@link plannersModule}. */
export interface PlannersModuleOptions {
  /**
   * Work budget of one `plan` call of `optimal`: search nodes of its exact search (default
   * {@link DEFAULT_OPTIMAL_EXPANSIONS}). A work budget, not a clock, so the same seed gives the
   * same plans on any machine.
   */
  readonly optimalExpansions?: number;
  /**
   * Time cap of one `plan` call of `optimal`, in ms: a safety net far above what the work
   * budget needs (default {@link DEFAULT_OPTIMAL_BUDGET_MS}).
   */
  readonly optimalBudgetMs?: number;
}

/** The bench's work budget of one `optimal` plan, in search nodes. */
export const DEFAULT_OPTIMAL_EXPANSIONS = 20_000;

/** The bench's time cap of one `optimal` plan, ms (a safety net; the work budget decides). */
export const DEFAULT_OPTIMAL_BUDGET_MS = 10_000;

/**
 * The bench's `optimal` planner: on the work budget, with a generous time cap.
 *
 * @example benchOptimalPlanner({ optimalExpansions: 5000 }).plan(nodes);
 */
export function benchOptimalPlanner(options: PlannersModuleOptions = {}): Planner {
  return optimalPlanner({
    budgetMs: options.optimalBudgetMs ?? DEFAULT_OPTIMAL_BUDGET_MS,
    maxExpansions: options.optimalExpansions ?? DEFAULT_OPTIMAL_EXPANSIONS,
  });
}

/**
 * An inversify module binding the default planners under {@link PLANNER}: `greedy`,
 * `ordered`, `sequential` and `optimal` (on a work budget, {@link benchOptimalPlanner}).
 *
 * @example
 * ```ts
 * const container = new Container();
 * container.load(plannersModule({ optimalExpansions: 5000 }));
 * ```
 * @see benchContainer
 */
export function plannersModule(options: PlannersModuleOptions = {}): ContainerModule {
  const optimal = benchOptimalPlanner(options);
  return new ContainerModule(({ bind }) => {
    bind(PLANNER).toConstantValue(greedyPlanner());
    bind(PLANNER).toConstantValue(orderedPlanner());
    bind(PLANNER).toConstantValue(sequentialPlanner());
    bind(PLANNER).toConstantValue(optimal);
  });
}
