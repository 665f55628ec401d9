import { eagerDependencies } from '../simulate/eager-dependencies.js';
import type { Strategy } from './strategy.js';
import { arrivalOf } from './stream-end.js';

/**
 * The executor's eager mode: each call starts as soon as it has arrived, every earlier call it
 * depends on has ended (rules 4 and 5), and a slot is free under `maxConcurrency`; among ready
 * calls the earlier one first. Needs no estimates at all.
 *
 * @example eagerStrategy().execute({ nodes, maxConcurrency: 8, arrivalMs });
 * @see eagerDependencies
 */
export function eagerStrategy(): Strategy {
  return {
    name: 'eager',
    description:
      'Each call starts once it has arrived and the earlier calls it conflicts with (or any earlier call, around one that is not concurrency-safe) have ended, under the cap.',
    execute(turn) {
      return {
        kind: 'dependencies',
        dependsOn: eagerDependencies(turn.nodes),
        readyMs: turn.nodes.map((_, index) => arrivalOf(turn, index)),
        maxConcurrency: turn.maxConcurrency,
      };
    },
  };
}
