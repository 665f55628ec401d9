import { isReadOnly } from './read-only.js';
import type { Strategy } from './strategy.js';
import { arrivalOf } from './stream-end.js';

/** Options of {@link globalRwLockStrategy}. */
export interface GlobalRwLockStrategyOptions {
  /** Cap the calls running at once at the bench's `maxConcurrency` (default: no cap). */
  readonly capped?: boolean;
}

/**
 * Codex's pattern: one read/write lock for the whole turn. A read-only call
 * ({@link isReadOnly}) takes it shared, any other call exclusive; the lock is fair (FIFO), so a
 * call waits for every earlier call it cannot share with — a read-only call for the earlier
 * exclusive ones, an exclusive call for every earlier call. Calls start on arrival. Uncapped,
 * or capped at `maxConcurrency`.
 *
 * @example globalRwLockStrategy({ capped: true }).execute({ nodes, maxConcurrency: 8 });
 */
export function globalRwLockStrategy(options: GlobalRwLockStrategyOptions = {}): Strategy {
  const capped = options.capped === true;
  return {
    name: capped ? 'global-rw-lock-capped' : 'global-rw-lock',
    description: `Codex: one fair read/write lock, read-only calls shared, every other call exclusive, calls start on arrival${capped ? ', at most `maxConcurrency` at once' : ', no cap'}.`,
    execute(turn) {
      const { nodes } = turn;
      const exclusive: number[] = [];
      const dependsOn = nodes.map((node, index) => {
        if (isReadOnly(node)) return [...exclusive];
        exclusive.push(index);
        return Array.from({ length: index }, (_, earlier) => earlier);
      });
      return {
        kind: 'dependencies',
        dependsOn,
        readyMs: nodes.map((_, index) => arrivalOf(turn, index)),
        maxConcurrency: capped ? turn.maxConcurrency : Number.POSITIVE_INFINITY,
      };
    },
  };
}
