import type { Strategy } from './strategy.js';
import { arrivalOf } from './stream-end.js';

/**
 * What the Vercel AI SDK and the OpenAI Agents SDK do: every call starts at once (in a streamed
 * turn, the moment it has arrived), with no cap and no conflict control at all. Fast, and
 * unsafe: the bench counts the conflicting pairs that overlapped and the lost updates they
 * would cause.
 *
 * @example allAtOnceStrategy().execute({ nodes, maxConcurrency: 8 }); // no dependencies, no cap
 */
export function allAtOnceStrategy(): Strategy {
  return {
    name: 'all-at-once',
    description:
      'AI SDK / OpenAI Agents: every call starts on arrival, no cap, no conflict control (conflicting overlaps counted).',
    execute(turn) {
      return {
        kind: 'dependencies',
        dependsOn: turn.nodes.map(() => []),
        readyMs: turn.nodes.map((_, index) => arrivalOf(turn, index)),
        maxConcurrency: Number.POSITIVE_INFINITY,
      };
    },
  };
}
