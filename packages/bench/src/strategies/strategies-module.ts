import { ContainerModule } from 'inversify';
import { allAtOnceStrategy } from './all-at-once-strategy.js';
import { consecutiveReadOnlyStrategy } from './consecutive-read-only-strategy.js';
import { eagerStrategy } from './eager-strategy.js';
import { globalRwLockStrategy } from './global-rw-lock-strategy.js';
import { plannerStrategy } from './planner-strategy.js';
import { benchOptimalPlanner, type PlannersModuleOptions } from './planners-module.js';
import { STRATEGY } from './strategy-token.js';

/**
 * An inversify module binding the default strategies under {@link STRATEGY}, besides the
 * planners: `optimal-clairvoyant` (the optimal planner given the sampled durations: headroom,
 * not achievable), `eager`, and the peers' `all-at-once`, `consecutive-read-only`,
 * `global-rw-lock` and `global-rw-lock-capped`.
 *
 * @example
 * ```ts
 * const container = new Container();
 * container.load(plannersModule(), strategiesModule());
 * ```
 * @see benchContainer
 */
export function strategiesModule(options: PlannersModuleOptions = {}): ContainerModule {
  const clairvoyant = plannerStrategy(benchOptimalPlanner(options), {
    name: 'optimal-clairvoyant',
    description:
      'Optimal, knowing durations: the `optimal` planner given the sampled durations — headroom, not achievable.',
    clairvoyant: true,
  });
  return new ContainerModule(({ bind }) => {
    bind(STRATEGY).toConstantValue(clairvoyant);
    bind(STRATEGY).toConstantValue(eagerStrategy());
    bind(STRATEGY).toConstantValue(allAtOnceStrategy());
    bind(STRATEGY).toConstantValue(consecutiveReadOnlyStrategy());
    bind(STRATEGY).toConstantValue(globalRwLockStrategy());
    bind(STRATEGY).toConstantValue(globalRwLockStrategy({ capped: true }));
  });
}
