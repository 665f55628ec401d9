import { FsToolsError } from './fs-tools-error.js';

/** Words for the errnos a fence folder meets, so the message says what to fix. */
const ERRNO_WORDS: Readonly<Record<string, string>> = {
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENAMETOOLONG: 'the path is too long',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/**
 * The error of the host fence's own folder: names the fence's path, what it was doing and the
 * errno, so a read-only or full temporary folder is never reported as a problem of the file
 * the model asked to write. An {@link FsToolsError} passes through.
 *
 * @example
 * ```ts
 * fenceError({ error, path: '/tmp/toolwaves-fence-0/tokens.log', doing: 'append a token to' });
 * // "the host fence could not append a token to /tmp/toolwaves-fence-0/tokens.log: EROFS
 * //  (read-only file system); nothing was written"
 * ```
 */
export function fenceError(options: {
  readonly error: unknown;
  readonly path: string;
  readonly doing: string;
}): FsToolsError {
  const { error, path, doing } = options;
  if (error instanceof FsToolsError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const errno =
    typeof code === 'string'
      ? `${code}${ERRNO_WORDS[code] === undefined ? '' : ` (${ERRNO_WORDS[code]})`}`
      : String(error);
  return new FsToolsError({
    code: 'fence_error',
    message: `the host fence could not ${doing} ${path}: ${errno}; nothing was written (the fence's folder is set by \`fenceTempDir\`, default the OS temporary folder)`,
    cause: error,
  });
}

/** The refusal of a fence folder that is not this user's alone. */
export function fenceUnsafe(options: {
  readonly path: string;
  readonly why: string;
  readonly owner: number;
  readonly mode: number;
}): FsToolsError {
  const { path, why, owner, mode } = options;
  const shown = (mode & 0o7777).toString(8).padStart(4, '0');
  return new FsToolsError({
    code: 'fence_unsafe',
    message: `refused to use the host fence folder ${path}: ${why} (owner uid ${owner}, mode ${shown}; expected uid ${process.getuid?.()} and no group/other access): another local user could make writes hang, fail or be refused through it; nothing was written. Remove it if it is not yours, or set \`fenceTempDir\` to a folder only you can write`,
  });
}

/** A call stopped (its signal aborted: a lost lease, a timeout) before its commit. */
export function stoppedBeforeCommit(options: {
  readonly what: string;
  readonly signal?: AbortSignal | undefined;
}): FsToolsError {
  const reason = options.signal?.reason;
  const why = reason instanceof Error ? reason.message : String(reason);
  return new FsToolsError({
    code: 'stopped',
    message: `did not write ${options.what}: the call was stopped before its commit (${why}); nothing was written`,
    cause: reason,
  });
}

/** A write that waited too long for the commit step. */
export function commitBlocked(options: {
  readonly what: string;
  readonly waitedMs: number;
  readonly holder: string;
}): FsToolsError {
  return new FsToolsError({
    code: 'commit_blocked',
    message: `did not write ${options.what}: the host commit step of an overlapping path has been held by another writer (${options.holder}) for over ${options.waitedMs} ms (\`maxCommitWaitMs\`); nothing was written. A stopped holder keeps it until it resumes or exits; try again later`,
  });
}
