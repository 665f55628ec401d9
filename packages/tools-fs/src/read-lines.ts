import type { FileHandle } from 'node:fs/promises';

/** One line of a file, without its `\n`. */
export interface FileLine {
  readonly bytes: Buffer;
  /** The line was longer than the cap and was cut (at a UTF-8 character boundary). */
  readonly cut: boolean;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads a file line by line in 64 KiB chunks, so a caller that stops early never reads the
 * rest. A line longer than `maxLineBytes` is cut (its remainder is skipped, not buffered). A
 * final line without `\n` is a line; a file ending in `\n` has no empty last line.
 */
export async function* readLines(
  handle: FileHandle,
  options: { readonly maxLineBytes: number },
): AsyncGenerator<FileLine> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let parts: Buffer[] = [];
  let length = 0;
  let cut = false;
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = chunk.subarray(0, bytesRead);
    let start = 0;
    for (;;) {
      const newline = data.indexOf(10, start);
      const end = newline === -1 ? bytesRead : newline;
      const room = options.maxLineBytes - length;
      if (end - start > room) cut = true;
      const take = Math.min(room, end - start);
      if (take > 0) {
        parts.push(Buffer.from(data.subarray(start, start + take)));
        length += take;
      }
      if (newline === -1) break;
      yield line(parts, length, cut);
      parts = [];
      length = 0;
      cut = false;
      start = end + 1;
    }
  }
  if (length > 0 || cut) yield line(parts, length, cut);
}

function line(parts: Buffer[], length: number, cut: boolean): FileLine {
  const bytes = Buffer.concat(parts, length);
  return { bytes: cut ? utf8Prefix(bytes) : bytes, cut };
}

/** `bytes` without a UTF-8 sequence cut off at its end. */
function utf8Prefix(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}
