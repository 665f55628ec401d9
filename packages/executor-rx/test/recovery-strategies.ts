import type { RecoveryStrategy, SoftFailure } from '../src/index.js';

/**
 * A recovery strategy that retries a call whose tool threw, once, after `delayMs`, and skips
 * every other failure (and the second throw).
 *
 * @example
 * ```ts
 * new Dispatcher({ registry, recovery: { strategy: retryOnce(10) } });
 * ```
 */
export const retryOnce = (delayMs: number): RecoveryStrategy => ({
  name: 'retry-once',
  decide: ({ failure }) =>
    failure.kind === 'tool_error' && failure.attempt === 1
      ? { action: 'retry', delayMs }
      : { action: 'skip' },
});

/** A strategy that skips every failure, and the failures it was handed, in order. */
export interface SkippingStrategy {
  readonly strategy: RecoveryStrategy;
  readonly failures: readonly SoftFailure[];
}

/**
 * A recovery strategy that skips every failure and keeps each one it is handed, so a test can
 * check what recovery saw (kind, message, cause, attempt).
 *
 * @example
 * ```ts
 * const skipping = skipAndKeep();
 * await new Dispatcher({ registry, recovery: { strategy: skipping.strategy } }).dispatch(calls);
 * expect(skipping.failures.map((f) => f.kind)).toEqual(['hook_failed']);
 * ```
 */
export function skipAndKeep(): SkippingStrategy {
  const failures: SoftFailure[] = [];
  return {
    strategy: {
      name: 'skip-and-keep',
      decide: ({ failure }) => {
        failures.push(failure);
        return { action: 'skip' };
      },
    },
    failures,
  };
}
