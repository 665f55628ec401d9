import type { Strategy } from './strategy.js';

/**
 * The executor's eager mode: each call starts as soon as it has arrived, every earlier call it
 * depends on has ended (the planner's `dependencies`: rules 4 and 5) and a slot is free under
 * `maxConcurrency`; among ready calls the earlier one first (model order). Simulated by the
 * planner's `simulateEager`; needs no estimates at all.
 *
 * @example eagerStrategy().execute({ nodes, maxConcurrency: 8, arrivalMs }); // { kind: 'eager', ... }
 */
export function eagerStrategy(): Strategy {
  return {
    name: 'eager',
    description:
      'Each call starts once it has arrived and the earlier calls it conflicts with (or any earlier call, around one that is not concurrency-safe) have ended, under the cap.',
    execute(turn) {
      return {
        kind: 'eager',
        nodes: turn.nodes,
        ...(turn.arrivalMs === undefined ? {} : { arrivalMs: turn.arrivalMs }),
        maxConcurrency: turn.maxConcurrency,
      };
    },
  };
}
