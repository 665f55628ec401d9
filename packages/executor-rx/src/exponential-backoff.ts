import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { invalidConfig } from './dispatch-error.js';
import type { RecoveryStrategy } from './recovery-strategy.js';

/** Options of {@link exponentialBackoff}. */
export interface ExponentialBackoffOptions {
  /** Delay before the first retry, in ms. Default 100. */
  readonly baseMs?: number;
  /** Each further retry waits this many times longer. Default 2. */
  readonly factor?: number;
  /** No delay is longer than this, in ms. Default 30 000. */
  readonly capMs?: number;
}

const RULES = {
  baseMs: optionRules.numberFrom(0),
  factor: optionRules.numberFrom(1),
  capMs: optionRules.numberFrom(0),
} as const;

/**
 * The recovery strategy that ships: retry what the reflector marks retryable after
 * `baseMs × factor^(attempt − 1)` ms (with its correction, capped at `capMs`); skip the rest.
 * @throws DispatchError `invalid_config` naming a bad option, or an unknown one (with a "did you
 *   mean" for a near miss).
 * @example
 * ```ts
 * new Dispatcher({ registry, recovery: { strategy: exponentialBackoff({ baseMs: 250 }) } });
 * ```
 * @see basicReflector for what is retryable by default.
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): RecoveryStrategy {
  checkOptions({ subject: 'exponentialBackoff', options, rules: RULES, error: invalidConfig });
  const { baseMs = 100, factor = 2, capMs = 30_000 } = options;
  return {
    name: 'exponential-backoff',
    decide: ({ failure, retryable, correction }) => {
      if (!retryable) return { action: 'skip' };
      const delayMs = Math.min(capMs, baseMs * factor ** (failure.attempt - 1));
      return correction === undefined
        ? { action: 'retry', delayMs }
        : { action: 'retry', delayMs, correction };
    },
  };
}
