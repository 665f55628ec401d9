import type { RecoveryCorrection, Reflection, Reflector } from './reflector.js';

/** The most retries one call gets; the failure after the last one is a hard error. */
export const MAX_RETRIES = 5;

/**
 * What to do about a soft error:
 * - `retry`: wait `delayMs` (on the dispatcher's scheduler, cancellable), then try again,
 *   optionally with a corrected tool or input. A call that already had {@link MAX_RETRIES}
 *   retries cannot retry again: asking for it is the hard error `recovery_exhausted`.
 * - `skip`: give up on this call only. The soft error keeps the call's slot (after retries,
 *   its message says recovery gave up) and the batch goes on.
 * - `fail`: give up on the whole batch: the hard error `recovery_exhausted`.
 */
export type RecoveryDecision =
  | { readonly action: 'retry'; readonly delayMs: number; readonly correction?: RecoveryCorrection }
  | { readonly action: 'skip' }
  | { readonly action: 'fail'; readonly reason?: string };

/**
 * Decides, from a {@link Reflection}, whether a failed attempt is retried, skipped or fails the
 * batch. The attempt number is `reflection.failure.attempt`.
 *
 * @example
 * ```ts
 * const twice: RecoveryStrategy = {
 *   name: 'twice',
 *   decide: ({ failure }) =>
 *     failure.attempt <= 2 ? { action: 'retry', delayMs: 50 } : { action: 'skip' },
 * };
 * ```
 * @see exponentialBackoff for the strategy that ships.
 */
export interface RecoveryStrategy {
  readonly name: string;
  decide(reflection: Reflection): RecoveryDecision | PromiseLike<RecoveryDecision>;
}

/**
 * The `recovery` option of a dispatcher. Without it a soft error is final (no retries).
 *
 * @example
 * ```ts
 * new Dispatcher({ registry, recovery: { strategy: exponentialBackoff() } });
 * ```
 */
export interface RecoveryOptions {
  readonly strategy: RecoveryStrategy;
  /** Default {@link basicReflector}. */
  readonly reflector?: Reflector;
}
