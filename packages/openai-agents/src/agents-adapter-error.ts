/**
 * What went wrong, for {@link AgentsAdapterError}:
 * - `invalid_options`: an option is wrong (named in the message, with its value).
 */
export type AgentsAdapterErrorCode = 'invalid_options';

/** Options of the {@link AgentsAdapterError} constructor. */
export interface AgentsAdapterErrorOptions {
  readonly code: AgentsAdapterErrorCode;
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * The one error class of `@toolwaves/openai-agents`: a caller's mistake, raised by
 * `withToolwaves` before any run. What a tool throws reaches the Agents SDK unchanged; what
 * toolwaves answers without running a tool (invalid input, a hook blocked it) is the tool's
 * output, a message the model reads.
 *
 * @example
 * ```ts
 * try {
 *   withToolwaves(agent, { dispatcher: undefined as never });
 * } catch (error) {
 *   if (error instanceof AgentsAdapterError) console.error(error.message);
 *   // "Expected `dispatcher` to be a Dispatcher (with openTurn), got `undefined` (undefined)"
 * }
 * ```
 * @see withToolwaves
 */
export class AgentsAdapterError extends Error {
  override readonly name = 'AgentsAdapterError';
  readonly code: AgentsAdapterErrorCode;

  constructor(options: AgentsAdapterErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}

/** An {@link AgentsAdapterError} `invalid_options` with that message. */
export function invalidOptions(message: string): AgentsAdapterError {
  return new AgentsAdapterError({ code: 'invalid_options', message });
}
