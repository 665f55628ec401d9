import { describeValue } from './describe-value.js';
import { PlannerError } from './planner-error.js';

/**
 * Reads an `arrivalMs` option: when each call of a batch of `count` arrives (the model is
 * still writing later calls), in ms from the batch's start; missing means every call is there
 * at 0. Internal to the package.
 *
 * @throws {PlannerError} `invalid_options` unless it is an array of `count` finite numbers from
 * 0 up, naming the first bad entry.
 * @example resolveArrivalTimes([0, 40], 2) // [0, 40]
 */
export function resolveArrivalTimes(arrivalMs: unknown, count: number): readonly number[] {
  if (arrivalMs === undefined) return new Array<number>(count).fill(0);
  if (!Array.isArray(arrivalMs) || arrivalMs.length !== count) {
    throw new PlannerError({
      code: 'invalid_options',
      message: `Expected \`arrivalMs\` to be an array of ${count} arrival times, one per call, got ${describeValue(arrivalMs)}`,
    });
  }
  for (let i = 0; i < count; i++) {
    const value: unknown = arrivalMs[i];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new PlannerError({
        code: 'invalid_options',
        message: `Expected \`arrivalMs[${i}]\` to be a finite number from 0 and up, got ${describeValue(value)}`,
      });
    }
  }
  return arrivalMs as number[];
}
