/**
 * What went wrong, for {@link ToolLoopError}:
 * - `invalid_options`: an option of `runToolLoop` or `withToolwaves` is wrong (named in the
 *   message, with its value);
 * - `not_run`: a call of a tool wrapped by `withToolwaves` was answered by toolwaves without
 *   running (invalid input, a hook blocked it, it timed out): the message is that answer, which
 *   the AI SDK hands to the model as the call's `tool-error`;
 * - `tool_error`: a tool of `toAiSdkTools(registry, { execute: true })` answered with a soft error
 *   (the message), thrown so that the AI SDK reports it to the model as a `tool-error`.
 */
export type ToolLoopErrorCode = 'invalid_options' | 'not_run' | 'tool_error';

/** Options of the {@link ToolLoopError} constructor. */
export interface ToolLoopErrorOptions {
  readonly code: ToolLoopErrorCode;
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * The one error class of `@toolwaves/ai-sdk`: a caller's mistake, raised before any model call,
 * or (`not_run`) the answer toolwaves gave a `withToolwaves` call it did not run. Failures of the
 * model call (from the AI SDK) and hard errors of a dispatch (`DispatchError`) pass through
 * unchanged; failures of tools are soft errors in the results.
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
