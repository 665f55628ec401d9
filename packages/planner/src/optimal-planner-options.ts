import { describeValue } from './describe-value.js';
import { PlannerError } from './planner-error.js';

/** Options of {@link optimalPlanner}. */
export interface OptimalPlannerOptions {
  /**
   * The upper limit on how long one `plan` call may search, in ms: a finite number above 0.
   * Default {@link DEFAULT_BUDGET_MS}. Normally the work budget (`maxExpansions`) ends the
   * search first; the clock only stops it on a machine too slow or too loaded to do that work
   * in time. A plan not proven optimal is the best found so far, with `proven: false`.
   */
  readonly budgetMs?: number;
  /**
   * The work budget: the most steps one `plan` call may take, where a step is a search node of
   * the exact search or a call tried by the heuristics (moves, swaps, splits, the longest-first
   * packing); the heuristics take at most a quarter when the exact search follows. An integer
   * from 0 and up, or `Infinity` (then only the time budget limits the search). Default
   * {@link DEFAULT_MAX_EXPANSIONS}. Within the time budget, the plan depends only on the batch,
   * `maxConcurrency` and this number — never on the machine's speed or load.
   */
  readonly maxExpansions?: number;
}

/** The time budget of one `plan` call of {@link optimalPlanner} when none is given, in ms. */
export const DEFAULT_BUDGET_MS = 50;

/**
 * The work budget of one `plan` call of {@link optimalPlanner} when none is given, in steps:
 * enough to prove nearly every batch of up to 16 calls optimal (see the package README), and
 * typically done well within {@link DEFAULT_BUDGET_MS} on an idle core.
 */
export const DEFAULT_MAX_EXPANSIONS = 200_000;

/**
 * Reads and checks {@link OptimalPlannerOptions}, filling in the defaults. Internal to the
 * package.
 *
 * @throws {PlannerError} `invalid_options`, naming the field and the value, e.g.
 * "Expected `budgetMs` to be a finite number above 0, got `0` (number)".
 * @example resolveOptimalPlannerOptions({ budgetMs: 20 }) // { budgetMs: 20, maxExpansions: 200000 }
 */
export function resolveOptimalPlannerOptions(
  options: OptimalPlannerOptions | undefined,
): Required<OptimalPlannerOptions> {
  if (options === undefined) {
    return { budgetMs: DEFAULT_BUDGET_MS, maxExpansions: DEFAULT_MAX_EXPANSIONS };
  }
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail('options', 'an object', options);
  }
  const budgetMs: unknown = options.budgetMs ?? DEFAULT_BUDGET_MS;
  if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs) || budgetMs <= 0) {
    fail('budgetMs', 'a finite number above 0', options.budgetMs);
  }
  const maxExpansions: unknown = options.maxExpansions ?? DEFAULT_MAX_EXPANSIONS;
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
