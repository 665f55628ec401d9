import { createHash } from 'node:crypto';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { FenceStore, type NewerToken } from './fence-store.js';
import { FsToolsError } from './fs-tools-error.js';
import { HostCommitLock } from './host-commit-lock.js';

/** What a fenced write touches and under which grant. */
export interface FencedWrite {
  /** Every key the write changes (its canonical `fs:` keys, or your resource's keys). */
  readonly keys: readonly string[];
  /** The call's `ToolContext.fencingToken`; without one nothing is checked or recorded. */
  readonly token: number | undefined;
  /** Names the write in a refusal, e.g. `` `notes.txt` ``. */
  readonly what: string;
  /** The call's `ToolContext.signal`: aborted before the commit, nothing is written. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The host-shared fence of a workspace: the highest fencing token seen per key (a
 * {@link FenceStore}) and the one commit step every process of the host goes through (a
 * {@link HostCommitLock}). A write tool calls {@link HostFence.claim} when it starts and
 * {@link HostFence.commit} to change the files: the write happens only if no newer token was
 * granted for a key it touches (the key, its ancestors, its descendants), and the check and the
 * write are one step for every process on the host. So a call whose lease ran out while it was
 * paused (GC, `SIGSTOP`, a frozen container) is refused once a newer holder has started, instead
 * of overwriting what that holder wrote.
 *
 * Where: `<os.tmpdir()>/toolwaves-<user>/fence-<hash of the workspace root>/` (outside the
 * workspace, so `list_dir` and `glob` never see it); every process sharing a workspace must see
 * the same temporary folder. Tokens must come from one coordinator namespace (or be otherwise
 * comparable): `@toolwaves/redis` tokens never go backwards.
 *
 * @example
 * ```ts
 * const fence = HostFence.forWorkspace('/srv/repo');
 * await fence.claim({ keys: [key], token: context.fencingToken, what: 'notes.txt' });
 * // ... read, compute ...
 * await fence.commit({ keys: [key], token: context.fencingToken, what: 'notes.txt' }, () =>
 *   rename(draft, target),
 * );
 * ```
 * @see FS_HOST_FENCE
 */
export class HostFence {
  /** The folder holding the lock and the store. */
  readonly dir: string;
  readonly #lock: HostCommitLock;
  readonly #storeFile: string;

  constructor(options: { readonly dir: string }) {
    this.dir = options.dir;
    this.#lock = new HostCommitLock({ dir: join(options.dir, 'commit') });
    this.#storeFile = join(options.dir, 'fences.json');
  }

  /** The fence of the workspace at `root` (its canonical path), in the host's temporary folder. */
  static forWorkspace(root: string): HostFence {
    const hash = createHash('sha256').update(root).digest('hex').slice(0, 16);
    return new HostFence({ dir: join(tmpdir(), `toolwaves-${userName()}`, `fence-${hash}`) });
  }

  /**
   * Records the call's token for its keys when its tool starts, so an older holder still running
   * (its lease lost) is refused from now on. Throws {@link FsToolsError} `stale_token` when a newer
   * token is already recorded: this call's own lease is the stale one. No token: nothing to do.
   */
  async claim(write: FencedWrite): Promise<void> {
    if (write.token === undefined) return;
    await this.commit(write, () => Promise.resolve());
  }

  /**
   * Runs `apply` (the write itself: a rename, an unlink) inside the host's commit step, after
   * checking that no newer token was recorded for the keys, and records the token. Throws
   * {@link FsToolsError} `stale_token` (nothing written) when one was, and `stopped` when the
   * call was stopped (its signal aborted: a lost lease, a timeout) before the commit. Without
   * a token the step is only the lock: `apply` still runs alone on the host (what `edit_file`
   * needs to compare and write at once).
   */
  async commit<T>(write: FencedWrite, apply: () => Promise<T>): Promise<T> {
    if (write.signal?.aborted) throw stopped(write);
    const release = await this.#lock.acquire({ signal: write.signal }).catch((error: unknown) => {
      throw write.signal?.aborted ? stopped(write) : error;
    });
    try {
      if (write.signal?.aborted) throw stopped(write);
      if (write.token === undefined) return await apply();
      const store = await FenceStore.load(this.#storeFile);
      const newer = store.newerThan(write.keys, write.token);
      if (newer !== undefined) throw staleToken(write, newer);
      const result = await apply();
      store.record(write.keys, write.token, Date.now());
      await store.save();
      return result;
    } finally {
      await release();
    }
  }
}

function stopped(write: FencedWrite): FsToolsError {
  const reason = write.signal?.reason;
  const why = reason instanceof Error ? reason.message : String(reason);
  return new FsToolsError({
    code: 'stopped',
    message: `did not write ${write.what}: the call was stopped before its commit (${why}); nothing was written`,
    cause: reason,
  });
}

function staleToken(write: FencedWrite, newer: NewerToken): FsToolsError {
  return new FsToolsError({
    code: 'stale_token',
    message: `refused to write ${write.what}: a newer fleet lock (token ${newer.token} on ${newer.key}) was granted after this call's (token ${write.token}), so this call's lease ran out while it was running; nothing was written`,
  });
}

function userName(): string {
  try {
    return String(userInfo().uid >= 0 ? userInfo().uid : userInfo().username);
  } catch {
    return 'user';
  }
}
