import type { ServiceIdentifier } from 'inversify';
import type { Strategy } from './strategy.js';

/**
 * The inversify service identifier the bench finds its strategies under (a multi-binding),
 * besides the planners bound under `PLANNER`: every strategy bound here is compared.
 *
 * @example
 * ```ts
 * const container = benchContainer();
 * container.bind(STRATEGY).toConstantValue(myStrategy);
 * resolveStrategies(container); // greedy, ordered, …, eager, all-at-once, …, and myStrategy
 * ```
 * @see strategiesModule
 */
export const STRATEGY: ServiceIdentifier<Strategy> = Symbol.for('toolwaves.bench.Strategy');
