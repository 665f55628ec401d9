import { closestName } from './closest-name.js';
import { describeValue } from './describe-value.js';
import { PlannerError } from './planner-error.js';

/** Options of {@link refuseUnknownOptions}. */
export interface RefuseUnknownOptionsOptions {
  /** Whose options, for the message: `'the options of optimalPlanner'`. */
  readonly what: string;
  /** The options given (an object). */
  readonly given: object;
  /** The options there are, in the order the message lists them. */
  readonly known: readonly string[];
  /** Makes the package's own error from the message. */
  readonly error: (message: string) => Error;
}

/**
 * Throws for the first key of `given` that is not an option, listing the options and, for a
 * near miss, the one meant: "Unknown option `maxStep` in the options of runToolLoop; did you
 * mean `maxSteps`? The options are …". The one wording of every toolwaves package (the planner
 * uses it for its own options; `checkOptions` of `@toolwaves/core` for everyone else's).
 *
 * @example
 * ```ts
 * refuseUnknownOptions({ what: 'the options of verifyPlan', given: options, known: ['ordered'], error });
 * ```
 * @see closestName for the hint.
 */
export function refuseUnknownOptions(options: RefuseUnknownOptionsOptions): void {
  const { known } = options;
  for (const key of Object.keys(options.given)) {
    if (known.includes(key)) continue;
    const meant = closestName(key, known);
    const list = known.map((name) => `\`${name}\``).join(', ');
    const rest = known.length === 0 ? 'there are none' : `the options are ${list}`;
    const tail =
      meant === undefined ? `; ${rest}` : `; did you mean \`${meant}\`? ${capitalize(rest)}`;
    throw options.error(`Unknown option \`${key}\` in ${options.what}${tail}`);
  }
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The planner's own use: `options` (when given) must be an object of known options only, else
 * a {@link PlannerError} `invalid_options` naming it.
 */
export function checkPlannerOptions(check: {
  readonly subject: string;
  readonly options: unknown;
  readonly known: readonly string[];
}): void {
  const { options } = check;
  if (options === undefined) return;
  const what = `the options of ${check.subject}`;
  const error = (message: string) => new PlannerError({ code: 'invalid_options', message });
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw error(`Expected ${what} to be an object, got ${describeValue(options)}`);
  }
  refuseUnknownOptions({ what, given: options, known: check.known, error });
}

/** The options of a planner's `plan` (`PlanOptions`). */
export const PLAN_OPTIONS: readonly string[] = ['maxConcurrency'];
