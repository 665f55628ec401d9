import { isReadOnly } from './read-only.js';
import type { Strategy } from './strategy.js';
import { arrivalOf, streamEnd } from './stream-end.js';

/** Claude Code's cap on tool calls running at once. */
export const CLAUDE_CODE_MAX_CONCURRENCY = 10;

/**
 * Claude Code's partition: the calls are cut into runs of consecutive read-only calls
 * ({@link isReadOnly}) and single other calls; runs go one after another, a run of read-only
 * calls concurrently under a cap of 10, every other call alone. In a streamed turn a read-only
 * call starts on arrival (once the calls before its run have ended); the other calls wait for
 * the end of the stream.
 *
 * @example consecutiveReadOnlyStrategy().execute({ nodes, maxConcurrency: 8 });
 */
export function consecutiveReadOnlyStrategy(options: { maxConcurrency?: number } = {}): Strategy {
  const cap = options.maxConcurrency ?? CLAUDE_CODE_MAX_CONCURRENCY;
  return {
    name: 'consecutive-read-only',
    description: `Claude Code: consecutive read-only calls run together (cap ${cap}), every other call alone, in order; streamed, read-only calls start on arrival, the others after the stream.`,
    execute(turn) {
      const { nodes } = turn;
      const end = streamEnd(turn);
      let lastOther = -1;
      const dependsOn = nodes.map((node, index) => {
        if (isReadOnly(node)) return lastOther < 0 ? [] : [lastOther];
        const before = Array.from({ length: index }, (_, earlier) => earlier);
        lastOther = index;
        return before;
      });
      return {
        kind: 'dependencies',
        dependsOn,
        readyMs: nodes.map((node, index) => (isReadOnly(node) ? arrivalOf(turn, index) : end)),
        maxConcurrency: cap,
      };
    },
  };
}
