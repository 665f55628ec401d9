import { FsToolsError } from './fs-tools-error.js';
import { looksBinary } from './looks-binary.js';
import { openRegularFile } from './open-regular-file.js';
import type { ResolvedPath } from './workspace.js';

/** A text file read whole. */
export interface WholeText {
  readonly text: string;
  /** Permission bits, to keep them when the file is rewritten. */
  readonly mode: number;
}

/**
 * Reads a whole text file, for tools that need all of it (`edit_file`, `grep`).
 *
 * @throws FsToolsError `unsupported_file` for a file over `maxBytes` or a binary one;
 * `not_found`, `not_a_file`, ... from {@link openRegularFile}.
 */
export async function readWholeText(
  file: ResolvedPath,
  options: { readonly maxBytes: number },
): Promise<WholeText> {
  const { handle, size, mode } = await openRegularFile(file);
  try {
    if (size > options.maxBytes) {
      throw new FsToolsError({
        code: 'unsupported_file',
        message: `too large: \`${file.display}\` is ${size} bytes, over the ${options.maxBytes}-byte limit`,
      });
    }
    const bytes = await handle.readFile();
    if (looksBinary(bytes)) {
      throw new FsToolsError({
        code: 'unsupported_file',
        message: `binary file: \`${file.display}\` is not text`,
      });
    }
    return { text: bytes.toString('utf8'), mode };
  } finally {
    await handle.close();
  }
}
