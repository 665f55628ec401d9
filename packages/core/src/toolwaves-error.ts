/**
 * What went wrong, for {@link ToolwavesError}:
 * - `duplicate_tool`: a registry already holds a tool of that name;
 * - `invalid_tool`: a tool (or its `@tool` / `fnTool` options) is malformed, named in the message;
 * - `provider_error`: a provider's stream reported an error (an `error` or `response.failed` event);
 * - `invalid_options`: a function's options are wrong or unknown, named in the message;
 * - `invalid_call`: a tool call is malformed, e.g. its `after` names an id that no earlier call
 *   of the turn has (named in the message with the call).
 */
export type ToolwavesErrorCode =
  | 'duplicate_tool'
  | 'invalid_tool'
  | 'provider_error'
  | 'invalid_options'
  | 'invalid_call';

/**
 * The one error class of `@toolwaves/core`: a programming or configuration mistake, or a
 * provider's stream reporting an error; never a tool's failure (those are soft errors in the
 * results).
 */
export class ToolwavesError extends Error {
  override readonly name = 'ToolwavesError';
  readonly code: ToolwavesErrorCode;

  constructor(options: { code: ToolwavesErrorCode; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}

/** A {@link ToolwavesError} `invalid_tool` with that message (the `error` of `checkOption`). */
export function invalidTool(message: string): ToolwavesError {
  return new ToolwavesError({ code: 'invalid_tool', message });
}

/** A {@link ToolwavesError} `invalid_options` with that message (the `error` of `checkOptions`). */
export function invalidOptions(message: string): ToolwavesError {
  return new ToolwavesError({ code: 'invalid_options', message });
}
