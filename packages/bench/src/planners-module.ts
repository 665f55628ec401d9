import { greedyPlanner, orderedPlanner, sequentialPlanner } from '@toolwaves/planner';
import { ContainerModule } from 'inversify';
import { PLANNER } from './planner-token.js';

/**
 * An inversify module binding the default planners under {@link PLANNER}: `greedy`, `ordered`
 * and `sequential`.
 *
 * @example
 * ```ts
 * const container = new Container();
 * container.load(plannersModule());
 * ```
 * @see benchContainer
 */
export function plannersModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(PLANNER).toConstantValue(greedyPlanner());
    bind(PLANNER).toConstantValue(orderedPlanner());
    bind(PLANNER).toConstantValue(sequentialPlanner());
  });
}
