/**
 * What went wrong, for {@link LangChainAdapterError}:
 * - `invalid_options`: an option is wrong (named in the message, with its value).
 */
export type LangChainAdapterErrorCode = 'invalid_options';

/** Options of the {@link LangChainAdapterError} constructor. */
export interface LangChainAdapterErrorOptions {
  readonly code: LangChainAdapterErrorCode;
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * The one error class of `@toolwaves/langchain`: a caller's mistake, raised when the middleware or
 * the tool node is made. A tool's own error reaches LangChain unchanged; what toolwaves answers
 * without running a tool (invalid input, a hook blocked it) is a `ToolMessage` with
 * `status: 'error'`.
 *
 * @example
 * ```ts
 * try {
 *   toolwavesMiddleware({ dispatcher: undefined as never });
 * } catch (error) {
 *   if (error instanceof LangChainAdapterError) console.error(error.message);
 *   // "Expected `dispatcher` to be a Dispatcher (with openTurn), got `undefined` (undefined)"
 * }
 * ```
 * @see toolwavesMiddleware
 */
export class LangChainAdapterError extends Error {
  override readonly name = 'LangChainAdapterError';
  readonly code: LangChainAdapterErrorCode;

  constructor(options: LangChainAdapterErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}

/** A {@link LangChainAdapterError} `invalid_options` with that message. */
export function invalidOptions(message: string): LangChainAdapterError {
  return new LangChainAdapterError({ code: 'invalid_options', message });
}
