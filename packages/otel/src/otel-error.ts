/**
 * What went wrong, for {@link OtelError}:
 * - `invalid_options`: an option of `openTelemetry` is wrong (named in the message).
 */
export type OtelErrorCode = 'invalid_options';

/** Options of the {@link OtelError} constructor. */
export interface OtelErrorOptions {
  readonly code: OtelErrorCode;
  readonly message: string;
}

/**
 * The one error class of `@toolwaves/otel`: a configuration mistake, raised by `openTelemetry`
 * when it is called. Once built, the instrumentation never throws into a dispatch.
 *
 * @example
 * ```ts
 * try {
 *   openTelemetry({ recordArguments: 'yes' as never });
 * } catch (error) {
 *   if (error instanceof OtelError) console.error(error.code, error.message);
 * }
 * // invalid_options Expected `recordArguments` to be a boolean, got `"yes"` (string)
 * ```
 * @see openTelemetry
 */
export class OtelError extends Error {
  override readonly name = 'OtelError';
  readonly code: OtelErrorCode;

  constructor(options: OtelErrorOptions) {
    super(options.message);
    this.code = options.code;
  }
}
