/**
 * What went wrong, for {@link ToolLoopError}:
 * - `invalid_options`: an option of `runToolLoop` is wrong (named in the message, with its value).
 */
export type ToolLoopErrorCode = 'invalid_options';

/** Options of the {@link ToolLoopError} constructor. */
export interface ToolLoopErrorOptions {
  readonly code: ToolLoopErrorCode;
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * The one error class of `@toolwaves/ai-sdk`: a caller's mistake, raised before any model call.
 * Failures of the model call (from the AI SDK) and hard errors of a dispatch (`DispatchError`)
 * pass through unchanged; failures of tools are soft errors in the results.
 *
 * @example
 * ```ts
 * try {
 *   await runToolLoop({ model, dispatcher, prompt, maxSteps: 0 });
 * } catch (error) {
 *   if (error instanceof ToolLoopError) console.error(error.message);
 *   // "Expected `maxSteps` to be an integer from 1 and up, got `0` (number)"
 * }
 * ```
 */
export class ToolLoopError extends Error {
  override readonly name = 'ToolLoopError';
  readonly code: ToolLoopErrorCode;

  constructor(options: ToolLoopErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}
