import { Container } from 'inversify';
import { type PlannersModuleOptions, plannersModule } from './planners-module.js';

/**
 * A container with the default planners bound ({@link plannersModule}); bind more under
 * {@link PLANNER} to add them to the comparison.
 *
 * @example
 * ```ts
 * const container = benchContainer();
 * container.bind(PLANNER).toConstantValue({ name: 'mine', plan: (nodes) => ... });
 * await runBench({ container, quick: true });
 * ```
 * @see resolvePlanners
 */
export function benchContainer(options: PlannersModuleOptions = {}): Container {
  const container = new Container();
  container.load(plannersModule(options));
  return container;
}
