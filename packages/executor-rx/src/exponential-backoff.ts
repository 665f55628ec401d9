import { checkOption, optionRules } from '@toolwaves/core/internal';
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

/**
 * The recovery strategy that ships: retry what the reflector marks retryable after
 * `baseMs × factor^(attempt − 1)` ms (with its correction, capped at `capMs`); skip the rest.
 * @throws DispatchError `invalid_config` naming a bad option.
 * @example
 * ```ts
 * new Dispatcher({ registry, recovery: { strategy: exponentialBackoff({ baseMs: 250 }) } });
 * ```
 * @see basicReflector for what is retryable by default.
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): RecoveryStrategy {
  const baseMs = check('baseMs', options.baseMs, 100, 0);
  const factor = check('factor', options.factor, 2, 1);
  const capMs = check('capMs', options.capMs, 30_000, 0);
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

function check(name: string, value: unknown, fallback: number, min: number): number {
  const subject = `\`${name}\` of exponentialBackoff`;
  const rule = optionRules.numberFrom(min);
  return checkOption({ name, subject, value, rule, error: invalidConfig, default: fallback });
}
