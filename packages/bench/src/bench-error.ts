/**
 * What went wrong, for {@link BenchError}:
 * - `invalid_options`: an option or command-line flag is out of range or unknown;
 * - `invalid_strategies`: no strategy, one without a `name` or `execute`, or two with one name;
 * - `invalid_trace`: a transcript `--trace` cannot read (the message names the line);
 * - `invalid_map`: a `--map` module that does not load or maps a tool wrongly;
 * - `strategy_failed`: a strategy (or the planner behind it) threw while deciding a batch;
 * - `write_failed`: a report file could not be written (it was not left half-written);
 * - `interrupted`: the run was stopped (Ctrl-C).
 */
export type BenchErrorCode =
  | 'invalid_options'
  | 'invalid_strategies'
  | 'invalid_trace'
  | 'invalid_map'
  | 'strategy_failed'
  | 'write_failed'
  | 'interrupted';

/**
 * The one error class of `@toolwaves/bench`, with a message that names the field and the value,
 * e.g. "Expected `--out` to be followed by a folder, got nothing".
 *
 * @example
 * if (error instanceof BenchError && error.code === 'invalid_options') console.error(error.message);
 */
export class BenchError extends Error {
  override readonly name = 'BenchError';
  readonly code: BenchErrorCode;

  constructor(options: { code: BenchErrorCode; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}

/** A {@link BenchError} `invalid_options` with that message (the `error` of option checks). */
export function invalidOptions(message: string): BenchError {
  return new BenchError({ code: 'invalid_options', message });
}
