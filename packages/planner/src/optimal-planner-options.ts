import { describeValue } from './describe-value.js';
import { PlannerError } from './planner-error.js';

/** Options of {@link optimalPlanner}. */
export interface OptimalPlannerOptions {
  /**
   * How long one `plan` call may search, in ms: a finite number above 0. Default
   * {@link DEFAULT_BUDGET_MS}. A plan not proven optimal in time is the best found so far,
   * with `proven: false`.
   */
  readonly budgetMs?: number;
  /**
   * Most search nodes the exact search may visit per `plan` call: an integer from 0 and up, or
   * `Infinity` (the default: only the time budget limits it). A limit makes planning
   * deterministic whatever the machine's speed, e.g. in tests of the budget path.
   */
  readonly maxExpansions?: number;
}

/** The time budget of one `plan` call of {@link optimalPlanner} when none is given, in ms. */
export const DEFAULT_BUDGET_MS = 50;

/**
 * Reads and checks {@link OptimalPlannerOptions}, filling in the defaults. Internal to the
 * package.
 *
 * @throws {PlannerError} `invalid_options`, naming the field and the value, e.g.
 * "Expected `budgetMs` to be a finite number above 0, got `0` (number)".
 * @example resolveOptimalPlannerOptions({ budgetMs: 20 }) // { budgetMs: 20, maxExpansions: Infinity }
 */
export function resolveOptimalPlannerOptions(
  options: OptimalPlannerOptions | undefined,
): Required<OptimalPlannerOptions> {
  if (options === undefined) {
    return { budgetMs: DEFAULT_BUDGET_MS, maxExpansions: Number.POSITIVE_INFINITY };
  }
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail('options', 'an object', options);
  }
  const budgetMs: unknown = options.budgetMs ?? DEFAULT_BUDGET_MS;
  if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs) || budgetMs <= 0) {
    fail('budgetMs', 'a finite number above 0', options.budgetMs);
  }
  const maxExpansions: unknown = options.maxExpansions ?? Number.POSITIVE_INFINITY;
  if (
    typeof maxExpansions !== 'number' ||
    !(Number.isInteger(maxExpansions) || maxExpansions === Number.POSITIVE_INFINITY) ||
    maxExpansions < 0
  ) {
    fail('maxExpansions', 'an integer from 0 and up, or Infinity', options.maxExpansions);
  }
  return { budgetMs, maxExpansions };
}

function fail(field: string, expected: string, value: unknown): never {
  throw new PlannerError({
    code: 'invalid_options',
    message: `Expected \`${field}\` to be ${expected}, got ${describeValue(value)}`,
  });
}
