import { lstatSync, mkdirSync, type Stats, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fenceError, fenceUnsafe } from './fence-errors.js';
import { FsToolsError } from './fs-tools-error.js';

/** Group and other permission bits: none may be set on a fence folder. */
const GROUP_OTHER = 0o077;
const STICKY = 0o1000;

/**
 * A folder of the host fence, checked on every use: it and every folder between it and the
 * temporary folder are created with mode 0700 when missing, and must be real folders (not
 * links) owned by this process's user with no group/other access. A folder another local user
 * made first (to plant a fake lock, a record, or to swap the fence later) is refused with a
 * `fence_unsafe` error naming its path, owner and mode, never trusted. The temporary folder
 * itself may be shared (`/tmp`), but then it must have the sticky bit, so nobody else can rename
 * the fence's folders away.
 *
 * @example
 * ```ts
 * const folder = new FenceFolder({ dir: '/tmp/toolwaves-fence-1000/edits', tempDir: '/tmp' });
 * folder.check(); // creates both folders (0700) or throws FsToolsError `fence_unsafe`
 * ```
 */
export class FenceFolder {
  /** The folder itself. */
  readonly dir: string;
  /** The folder the chain is checked up to (not included). */
  readonly tempDir: string;
  /** The folders from the one below `tempDir` down to `dir`. */
  readonly #chain: readonly string[];
  readonly #uid: number;
  #tempDirChecked = false;
  #checkedOnce = false;

  constructor(options: { readonly dir: string; readonly tempDir: string }) {
    if (typeof process.getuid !== 'function') {
      throw new FsToolsError({
        code: 'fence_unsafe',
        message:
          'the host fence needs a POSIX system (owners, modes and Unix sockets tell who holds a commit): none here, so the fs write tools cannot run safely',
      });
    }
    this.#uid = process.getuid();
    this.dir = resolve(options.dir);
    this.tempDir = resolve(options.tempDir);
    const below = relative(this.tempDir, this.dir);
    if (below === '' || below.startsWith('..')) {
      throw new FsToolsError({
        code: 'invalid_options',
        message: `the host fence folder ${this.dir} must be inside its temporary folder ${this.tempDir}`,
      });
    }
    const chain: string[] = [];
    for (let at = this.dir; at !== this.tempDir; at = dirname(at)) chain.unshift(at);
    this.#chain = chain;
  }

  /**
   * Creates what is missing (mode 0700) and checks the chain, synchronously: a few `lstat`s,
   * cheaper than one round trip through libuv's thread pool. The temporary folder itself is
   * checked on the first use. Answers the folder's own `lstat`, taken last: a caller that looks
   * at the folder right after (to list it) uses it instead of looking again.
   *
   * @throws FsToolsError `fence_unsafe` (not this user's alone), `fence_error` (cannot be
   * created or read: read-only, full, ...).
   */
  check(): Stats {
    if (!this.#tempDirChecked) this.#checkTempDir();
    this.#tempDirChecked = true;
    let info: Stats | undefined;
    for (const folder of this.#chain) info = this.#checkFolder(folder);
    this.#checkedOnce = true;
    // the chain holds at least `dir` itself (the constructor refuses `dir === tempDir`)
    return info as Stats;
  }

  /**
   * Checks (and creates) the chain on the first use only: what must be there before this
   * process writes anything into the folder (its slot, its token records). Every later use is
   * checked by {@link FenceFolder.check}, right after the write that use makes into files this
   * process opened and checked already.
   */
  prepare(): void {
    if (!this.#checkedOnce) this.check();
  }

  /** A path inside the folder. */
  path(name: string): string {
    return join(this.dir, name);
  }

  #checkTempDir(): void {
    let info: Stats;
    try {
      info = statSync(this.tempDir);
    } catch (error) {
      throw fenceError({ error, path: this.tempDir, doing: 'use its temporary folder' });
    }
    const shared = (info.mode & 0o022) !== 0;
    const ownedBySomeoneElse = info.uid !== this.#uid && info.uid !== 0;
    if (!info.isDirectory() || (shared && (info.mode & STICKY) === 0) || ownedBySomeoneElse) {
      throw fenceUnsafe({
        path: this.tempDir,
        why: !info.isDirectory()
          ? 'the temporary folder is not a folder'
          : ownedBySomeoneElse
            ? 'the temporary folder belongs to another user'
            : 'the temporary folder is writable by others without the sticky bit (they could rename the fence away)',
        owner: info.uid,
        mode: info.mode,
      });
    }
  }

  #checkFolder(folder: string): Stats {
    let info = lstatOrUndefined(folder);
    if (info === undefined) {
      try {
        mkdirSync(folder, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw fenceError({ error, path: folder, doing: 'create its folder' });
        }
      }
      info = lstatOrUndefined(folder);
      if (info === undefined) {
        throw fenceError({
          error: Object.assign(new Error('ENOENT'), { code: 'ENOENT' }),
          path: folder,
          doing: 'create its folder',
        });
      }
    }
    const why = info.isSymbolicLink()
      ? 'it is a symbolic link'
      : !info.isDirectory()
        ? 'it is not a folder'
        : info.uid !== this.#uid
          ? 'it belongs to another user'
          : (info.mode & GROUP_OTHER) !== 0
            ? 'its group or others have access'
            : undefined;
    if (why !== undefined)
      throw fenceUnsafe({ path: folder, why, owner: info.uid, mode: info.mode });
    return info;
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fenceError({ error, path, doing: 'look at its folder' });
  }
}
