/** What went wrong, for {@link DemoError}. */
export type DemoErrorCode =
  | 'invalid_flag'
  | 'invalid_workspace'
  | 'interrupted'
  | 'restate_unavailable';

/**
 * The demo's one error class: a bad flag or folder, or no Restate server for `--durable`, said in
 * words the user can act on.
 */
export class DemoError extends Error {
  override readonly name = 'DemoError';
  readonly code: DemoErrorCode;

  constructor(options: { code: DemoErrorCode; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}
