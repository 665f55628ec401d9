/** What went wrong, for {@link FsToolsError}. */
export type FsToolsErrorCode =
  /** An option of `fsToolsModule` is wrong (not the root). */
  | 'invalid_options'
  /** `root` is not an existing directory. */
  | 'invalid_root'
  /** A path is empty or holds a NUL byte, or a glob pattern climbs out with `..`. */
  | 'invalid_path'
  /** A path resolves outside the workspace root. */
  | 'path_escape'
  | 'not_found'
  /** A file was expected and something else (a directory, a device) is there. */
  | 'not_a_file'
  | 'not_a_directory'
  /** `move_file` onto an existing path without `overwrite`. */
  | 'already_exists'
  /** `delete_file` on a folder that still holds something. */
  | 'not_empty'
  /** `edit_file`: `old_string` is not in the file. */
  | 'no_match'
  /** `edit_file`: `old_string` occurs more than once and `replace_all` is not set. */
  | 'not_unique'
  /** A regular expression or glob pattern that cannot be compiled, or an empty edit. */
  | 'invalid_pattern'
  /** A file too large for `edit_file`, or binary where text is needed. */
  | 'unsupported_file'
  /**
   * A write refused at its commit: a newer fleet lock (fencing token) was granted for a key it
   * writes, so this call's lease ran out while it ran. Nothing was written.
   */
  | 'stale_token'
  /** A write tool's call was stopped (lost lease, timeout, cancellation) before its commit. */
  | 'stopped'
  /** `edit_file`: the file changed between its read and its write. Nothing was written. */
  | 'changed_since_read'
  /**
   * A write waited longer than `maxCommitWaitMs` for the host commit step, held by another
   * writer of an overlapping path (the message names its pid and whether it is stopped).
   * Nothing was written.
   */
  | 'commit_blocked'
  /**
   * The host fence's folder (or a folder above it, up to the temporary folder) is not this
   * user's alone: another owner, or group/other access, or a link. Nothing was written.
   */
  | 'fence_unsafe'
  /**
   * The host fence's own folder could not be used (read-only, full, unreadable record); the
   * message names the fence's path and the errno. Nothing was written.
   */
  | 'fence_error'
  /** Any other failure of the filesystem (permissions, a full disk, ...). */
  | 'io_error';

/**
 * The one error class of `@toolwaves/tools-fs`. Configuration mistakes (`invalid_options`,
 * `invalid_root`) are thrown by `fsToolsModule`; every other code is turned into a soft error
 * (`{ content: message, isError: true }`) by the tool that met it, so the model reads the
 * message and the batch goes on.
 *
 * @example
 * ```ts
 * try {
 *   fsToolsModule({ root: '/no/such/folder' });
 * } catch (error) {
 *   if (error instanceof FsToolsError && error.code === 'invalid_root') console.error(error.message);
 * }
 * ```
 */
export class FsToolsError extends Error {
  override readonly name = 'FsToolsError';
  readonly code: FsToolsErrorCode;

  constructor(options: { code: FsToolsErrorCode; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}

/** The error of a wrong option: {@link FsToolsError} `invalid_options`. */
export function invalidOptions(message: string): FsToolsError {
  return new FsToolsError({ code: 'invalid_options', message });
}
