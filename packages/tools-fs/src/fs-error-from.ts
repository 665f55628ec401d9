import { FsToolsError } from './fs-tools-error.js';

/**
 * Turns what a filesystem call threw into an {@link FsToolsError} with a message a model can act
 * on, naming the path as the model sees it (relative to the root). An `FsToolsError` passes
 * through; anything that is not a Node.js system error is returned as is, to be rethrown.
 */
export function fsErrorFrom(error: unknown, display: string): unknown {
  if (error instanceof FsToolsError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string') return error;
  const shown = `\`${display}\``;
  switch (code) {
    case 'ENOENT':
      return new FsToolsError({ code: 'not_found', message: `not found: ${shown}`, cause: error });
    case 'ENOTDIR':
      return new FsToolsError({
        code: 'not_a_directory',
        message: `not a directory: a part of ${shown} is a file`,
        cause: error,
      });
    case 'EISDIR':
      return new FsToolsError({
        code: 'not_a_file',
        message: `is a directory: ${shown}`,
        cause: error,
      });
    case 'EEXIST':
      return new FsToolsError({
        code: 'already_exists',
        message: `already exists: ${shown}`,
        cause: error,
      });
    case 'ENOTEMPTY':
      return new FsToolsError({
        code: 'not_empty',
        message: `directory not empty: ${shown}`,
        cause: error,
      });
    case 'ELOOP':
      return new FsToolsError({
        code: 'path_escape',
        message: `refused to follow a symbolic link at ${shown}: it appeared after the path was checked`,
        cause: error,
      });
    case 'EACCES':
    case 'EPERM':
      return new FsToolsError({
        code: 'io_error',
        message: `permission denied: ${shown}`,
        cause: error,
      });
    default:
      return new FsToolsError({
        code: 'io_error',
        message: `filesystem error ${code} on ${shown}`,
        cause: error,
      });
  }
}
