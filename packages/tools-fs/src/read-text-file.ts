import { BINARY_SNIFF_BYTES, looksBinary } from './looks-binary.js';
import { openRegularFile } from './open-regular-file.js';
import { plural } from './plural.js';
import { readLines } from './read-lines.js';
import type { ResolvedPath } from './workspace.js';

/** Options of {@link readTextFile}. */
export interface ReadTextFileOptions {
  readonly file: ResolvedPath;
  /** 1-based number of the first line shown. */
  readonly offset: number;
  /** Most lines shown. */
  readonly limit: number;
  /** Most bytes of file content shown (a longer single line is cut). */
  readonly maxBytes: number;
}

/** How many cut lines a note lists by number. */
const CUT_LINES_LISTED = 5;

/**
 * What `read_file` answers: the lines from `offset`, numbered like `cat -n` (the number
 * right-aligned in 6 columns, a tab, the line), up to `limit` lines and `maxBytes` bytes, with a
 * closing note in `[...]` saying what was left out and how to read on. An empty file, a binary
 * file (a NUL byte in the first 8 KiB) and an offset past the end are answered by a note, not
 * content. Stops reading the file as soon as the answer is complete.
 *
 * @throws FsToolsError `not_found`, `not_a_file`, ... from {@link openRegularFile}.
 */
export async function readTextFile(options: ReadTextFileOptions): Promise<string> {
  const { file, offset, limit, maxBytes } = options;
  const { handle, size } = await openRegularFile(file);
  try {
    const head = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead === 0) return `(empty file: ${file.display})`;
    if (looksBinary(head.subarray(0, bytesRead))) {
      return `(binary file: ${file.display}, ${plural(size, 'byte')}; not shown)`;
    }
    const shown: string[] = [];
    const cutLines: number[] = [];
    let used = 0;
    let number = 0;
    let rest: string | undefined;
    for await (const line of readLines(handle, { maxLineBytes: maxBytes })) {
      number += 1;
      if (number < offset) continue;
      if (shown.length === limit) {
        rest = `showed lines ${offset}-${number - 1} (limit ${limit} lines); more lines follow: read on with offset ${number}`;
        break;
      }
      if (shown.length > 0 && used + line.bytes.length > maxBytes) {
        rest = `showed lines ${offset}-${number - 1}, up to the ${maxBytes}-byte limit; more lines follow: read on with offset ${number}`;
        break;
      }
      used += line.bytes.length + 1;
      if (line.cut) cutLines.push(number);
      shown.push(`${String(number).padStart(6)}\t${line.bytes.toString('utf8')}`);
    }
    if (shown.length === 0) {
      return `(offset ${offset} is past the end of ${file.display}, which has ${plural(number, 'line')})`;
    }
    const notes: string[] = [];
    if (cutLines.length > 0) {
      const listed = cutLines.slice(0, CUT_LINES_LISTED).join(', ');
      const more =
        cutLines.length > CUT_LINES_LISTED ? ` and ${cutLines.length - CUT_LINES_LISTED} more` : '';
      const word = cutLines.length === 1 ? 'line' : 'lines';
      notes.push(`[${word} ${listed}${more}: longer than ${maxBytes} bytes, cut]`);
    }
    if (rest !== undefined) notes.push(`[${file.display}: ${rest}]`);
    return notes.length === 0 ? shown.join('\n') : `${shown.join('\n')}\n\n${notes.join('\n')}`;
  } finally {
    await handle.close();
  }
}
