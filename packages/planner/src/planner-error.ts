/**
 * What went wrong, for {@link PlannerError}:
 * - `invalid_nodes`: a node is malformed (`nodes[i].index !== i`, a key that is not a string,
 *   an access mode other than `'read'`/`'write'`, a negative estimate, ...);
 * - `invalid_options`: an option is out of range (`maxConcurrency` not an integer from 1 up);
 * - `invalid_plan`: a plan handed to {@link makespan} or {@link explainPlan} names calls the
 *   batch does not have, or breaks the rules.
 */
export type PlannerErrorCode = 'invalid_nodes' | 'invalid_options' | 'invalid_plan';

/**
 * The one error class of `@toolwaves/planner`: always a caller's mistake, with a message that
 * names the field and the value, e.g.
 * "Expected `maxConcurrency` to be an integer from 1 and up, got `0` (number)".
 *
 * @example
 * try {
 *   makespan(nodes, plan, { maxConcurrency: 0 });
 * } catch (error) {
 *   if (error instanceof PlannerError && error.code === 'invalid_options') console.error(error.message);
 * }
 */
export class PlannerError extends Error {
  override readonly name = 'PlannerError';
  readonly code: PlannerErrorCode;

  constructor(options: { code: PlannerErrorCode; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}
