/** Why a whole dispatch failed, for {@link DispatchError} (README: Errors, when each is raised). */
export type DispatchErrorCode =
  | 'cancelled'
  | 'aborted'
  | 'loop_detected'
  | 'recovery_exhausted'
  | 'invalid_config'
  | 'invalid_plan'
  | 'source_failed'
  | 'turn_closed';

/** Options of the {@link DispatchError} constructor. */
export interface DispatchErrorOptions {
  readonly code: DispatchErrorCode;
  readonly message: string;
  readonly cause?: unknown;
  /** The call that raised the error, when one did. */
  readonly toolCallId?: string;
  /** The tool of that call. */
  readonly toolName?: string;
  /** Attempts made by that call (for `recovery_exhausted`). */
  readonly attempts?: number;
  /** What is wrong with the plan (for `invalid_plan`). */
  readonly violations?: readonly string[];
}

/**
 * The one error class of `@toolwaves/executor-rx`: a hard error, failing the whole dispatch
 * (tool failures are soft errors: results with `isError: true`).
 *
 * @example
 * ```ts
 * try {
 *   await dispatcher.dispatch(calls, { signal });
 * } catch (error) {
 *   if (error instanceof DispatchError && error.code === 'cancelled') return;
 *   throw error;
 * }
 * ```
 * @see DispatchErrorCode for when each code is raised.
 */
export class DispatchError extends Error {
  override readonly name = 'DispatchError';
  readonly code: DispatchErrorCode;
  readonly toolCallId: string | undefined;
  readonly toolName: string | undefined;
  readonly attempts: number | undefined;
  readonly violations: readonly string[] | undefined;

  constructor(options: DispatchErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.toolCallId = options.toolCallId;
    this.toolName = options.toolName;
    this.attempts = options.attempts;
    this.violations = options.violations;
  }
}

/** The hard error `invalid_config` with `message` (what an option check throws). */
export const invalidConfig = (message: string): DispatchError =>
  new DispatchError({ code: 'invalid_config', message });
