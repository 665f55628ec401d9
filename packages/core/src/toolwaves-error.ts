/** What went wrong, for {@link ToolwavesError}. */
export type ToolwavesErrorCode =
  | 'duplicate_tool'
  | 'invalid_tool'
  | 'invalid_options'
  /** A provider's stream reported an error (an `error` or `response.failed` event). */
  | 'provider_error';

/**
 * The one error class of `@toolwaves/core`: a programming or configuration mistake, never a
 * tool's failure (those are soft errors in the results).
 */
export class ToolwavesError extends Error {
  override readonly name = 'ToolwavesError';
  readonly code: ToolwavesErrorCode;

  constructor(options: { code: ToolwavesErrorCode; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}
