import { describeValue } from './describe-value.js';
import { PlannerError } from './planner-error.js';
import type { PlanOptions } from './types.js';

/** How many calls run at once inside a wave when `maxConcurrency` is not given. */
export const DEFAULT_MAX_CONCURRENCY = 8;

/**
 * Reads `options.maxConcurrency`, defaulting to {@link DEFAULT_MAX_CONCURRENCY}.
 *
 * @throws {PlannerError} `invalid_options` when it is not an integer from 1 up.
 * @example resolveMaxConcurrency({ maxConcurrency: 3 }) // 3
 */
export function resolveMaxConcurrency(options: PlanOptions | undefined): number {
  const value: unknown = options?.maxConcurrency;
  if (value === undefined) return DEFAULT_MAX_CONCURRENCY;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new PlannerError({
      code: 'invalid_options',
      message: `Expected \`maxConcurrency\` to be an integer from 1 and up, got ${describeValue(value)}`,
    });
  }
  return value;
}
