import { Container } from 'inversify';
import { type PlannersModuleOptions, plannersModule } from './planners-module.js';
import { strategiesModule } from './strategies-module.js';

/**
 * A container with the default planners ({@link plannersModule}) and strategies
 * ({@link strategiesModule}) bound; bind more under `PLANNER` or `STRATEGY` to add them to
 * the comparison.
 *
 * @example
 * ```ts
 * const container = benchContainer();
 * container.bind(STRATEGY).toConstantValue(myStrategy);
 * await runBench({ container, quick: true });
 * ```
 * @see resolveStrategies
 */
export function benchContainer(options: PlannersModuleOptions = {}): Container {
  const container = new Container();
  container.load(plannersModule(options), strategiesModule(options));
  return container;
}
