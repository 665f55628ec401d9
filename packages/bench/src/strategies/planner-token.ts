import type { Planner } from '@toolwaves/planner';
import type { ServiceIdentifier } from 'inversify';

/**
 * The inversify service identifier the bench finds its planners under (a multi-binding): every
 * planner bound here is compared. Bind your own to compare it with the defaults.
 *
 * @example
 * ```ts
 * const container = benchContainer();
 * container.bind(PLANNER).toConstantValue(myPlanner);
 * resolvePlanners(container); // greedy, ordered, sequential, …, and myPlanner
 * ```
 * @see plannersModule
 */
export const PLANNER: ServiceIdentifier<Planner> = Symbol.for('toolwaves.bench.Planner');
