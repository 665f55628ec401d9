import type { RecoveryCorrection, Reflection, Reflector } from './reflector.js';

/** The most retries one call gets; the failure after the last one is a hard error. */
export const MAX_RETRIES = 5;

/** What to do about a soft error: `retry` after `delayMs`, `skip` the call or `fail` the batch. */
export type RecoveryDecision =
  | { readonly action: 'retry'; readonly delayMs: number; readonly correction?: RecoveryCorrection }
  | { readonly action: 'skip' }
  | { readonly action: 'fail'; readonly reason?: string };

/** Decides, from a {@link Reflection}, what to do about a failed attempt (README: Recovery). */
export interface RecoveryStrategy {
  readonly name: string;
  decide(reflection: Reflection): RecoveryDecision | PromiseLike<RecoveryDecision>;
}

/** The `recovery` option of a dispatcher. Without it a soft error is final (no retries). */
export interface RecoveryOptions {
  readonly strategy: RecoveryStrategy;
  /** Default {@link basicReflector}. */
  readonly reflector?: Reflector;
}
