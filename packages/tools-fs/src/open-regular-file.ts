import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { fsErrorFrom } from './fs-error-from.js';
import { FsToolsError } from './fs-tools-error.js';
import type { ResolvedPath } from './workspace.js';

/** An open regular file and what `fstat` said about it. */
export interface OpenedFile {
  readonly handle: FileHandle;
  readonly size: number;
  /** Permission bits. */
  readonly mode: number;
}

// A FIFO would block `open` without O_NONBLOCK; O_NOFOLLOW refuses a link swapped in after the
// path was resolved.
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Opens a resolved path for reading, refusing a symbolic link in its last part, and checks it is
 * a regular file. The caller closes the handle.
 *
 * @throws FsToolsError `not_found`, `not_a_file` (a directory, a device, a FIFO), ...
 */
export async function openRegularFile(file: ResolvedPath): Promise<OpenedFile> {
  let handle: FileHandle;
  try {
    handle = await open(file.absolute, FLAGS);
  } catch (error) {
    throw fsErrorFrom(error, file.display);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) {
      throw new FsToolsError({
        code: 'not_a_file',
        message: `is a directory: \`${file.display}\` (list_dir shows what it holds)`,
      });
    }
    if (!info.isFile()) {
      throw new FsToolsError({
        code: 'not_a_file',
        message: `not a regular file: \`${file.display}\``,
      });
    }
    return { handle, size: info.size, mode: info.mode & 0o7777 };
  } catch (error) {
    await handle.close();
    throw fsErrorFrom(error, file.display);
  }
}
