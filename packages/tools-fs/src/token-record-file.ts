import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { fenceError, fenceUnsafe } from './fence-errors.js';
import { FsToolsError } from './fs-tools-error.js';

const OPEN_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

/** An arrival record: `a` and the beacon id of a process that made its slot. */
const ARRIVAL = /^a [0-9a-z]+-[0-9a-f]+$/;
const TOKEN = /^([tf]) (\d+)(?: (".*"))?$/;

/** What one line of the token records says. */
export type RecordLine =
  /** `m`: the file was compacted into a new one, to be read from its start. */
  | { readonly kind: 'moved' }
  /** `a <beacon>`: a process made its slot and began to use the fence. */
  | { readonly kind: 'arrival' }
  /** `f <token>`: every token below it is refused, for every key. */
  | { readonly kind: 'floor'; readonly token: number }
  /** `t <token> <key as JSON>`: the highest token recorded for the key. */
  | { readonly kind: 'token'; readonly token: number; readonly key: string };

/**
 * Reads one line of the token records (`file`, for the error).
 *
 * @throws FsToolsError `fence_error` for a line it cannot read: nothing is decided on a guess.
 */
export function parseRecordLine(file: string, line: string): RecordLine {
  if (line === 'm') return { kind: 'moved' };
  if (ARRIVAL.test(line)) return { kind: 'arrival' };
  const match = TOKEN.exec(line);
  const token = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(token)) throw damaged(file, line);
  if (match[1] === 'f') return { kind: 'floor', token };
  const key = parseKey(match[3]);
  if (key === undefined) throw damaged(file, line);
  return { kind: 'token', token, key };
}

/**
 * Opens the token record file for reading and appending (made with mode 0600 when missing,
 * never through a link), and checks that it is a file of this user's alone.
 *
 * @throws FsToolsError `fence_error` (cannot be opened), `fence_unsafe` (not this user's alone).
 */
export function openRecordFile(file: string): number {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS, 0o600);
  } catch (error) {
    throw fenceError({ error, path: file, doing: 'open the token records of' });
  }
  const info = fstatSync(fd);
  if (!info.isFile() || info.uid !== process.getuid?.() || (info.mode & 0o077) !== 0) {
    closeSync(fd);
    throw fenceUnsafe({
      path: file,
      why: info.isFile() ? 'the token record file is not this user’s alone' : 'it is not a file',
      owner: info.uid,
      mode: info.mode,
    });
  }
  return fd;
}

function damaged(file: string, line: string): FsToolsError {
  return new FsToolsError({
    code: 'fence_error',
    message: `the host fence's token record file ${file} holds a line it cannot read (${JSON.stringify(line.slice(0, 80))}): nothing was written (remove the file only when no fleet call is running)`,
  });
}

function parseKey(json: string | undefined): string | undefined {
  if (json === undefined) return undefined;
  try {
    const key: unknown = JSON.parse(json);
    return typeof key === 'string' ? key : undefined;
  } catch {
    return undefined;
  }
}
