import type { Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { EVERY_KEY } from './commit-intent.js';
import { stoppedBeforeCommit } from './fence-errors.js';
import { FenceFolder } from './fence-folder.js';
import { FenceStore } from './fence-store.js';
import { FsToolsError, invalidOptions } from './fs-tools-error.js';
import { HostCommitLock, type Release } from './host-commit-lock.js';
import type { NewerToken } from './token-index.js';

/** Default of `maxWaitMs`: how long a commit waits for an overlapping one before giving up. */
export const DEFAULT_MAX_COMMIT_WAIT_MS = 5000;

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
  /**
   * The call's `ToolContext.markCommitted`: called the moment the commit passed the fence, right
   * before `apply` (which then runs whatever becomes of the lease), so a lease lost after it
   * answers the tool's own result (what `apply` did) instead of `outcome_unknown`.
   */
  readonly markCommitted?: (() => void) | undefined;
}

/** Options of {@link HostFence}. */
export interface HostFenceOptions {
  /**
   * The fence's folder: the slot (commit intents) and socket of each process using it, its token
   * records in `tokens.log`, the records of `edit_file` in `edits/`.
   */
  readonly dir: string;
  /**
   * The folder the ownership checks go up to (not included). Default: the parent of `dir`.
   */
  readonly tempDir?: string | undefined;
  /** How long a commit waits for an overlapping one (ms) before `commit_blocked`. Default 5000. */
  readonly maxWaitMs?: number | undefined;
}

const shared = new Map<string, HostFence>();
/** How many stores of each record file this process made: records are skipped only by a sole one. */
const storesOf = new Map<string, number>();

/**
 * Writes whose claim checked the fence's folders: their commit does not check again. Nobody else
 * can swap a folder between the two (each is this user's alone, in a sticky or private parent).
 */
const checkedByClaim = new WeakSet<FencedWrite>();

/**
 * The host-shared fence of the fs write tools: the highest fencing token recorded per key (a
 * {@link FenceStore}) and the commit step every process of the host goes through per key (a
 * {@link HostCommitLock}). A write tool calls {@link HostFence.claim} when it starts and
 * {@link HostFence.commit} to change the files: the write happens only if no newer token was
 * recorded for a key it touches (the key, its ancestors, its descendants), and the check and the
 * write are one step for every process of the host. So a call whose lease ran out while it was
 * paused (GC, `SIGSTOP`, a frozen container) is refused once a newer holder has started, instead
 * of overwriting what that holder wrote. Commits of keys that do not overlap never wait for each
 * other.
 *
 * Where: `<temporary folder>/toolwaves-fence-<uid>/`, one fence for every workspace of the user
 * (keys are canonical absolute paths, so workspaces whose roots overlap share their records),
 * outside the workspaces. Its folder is checked on every use, with every folder between it and
 * the temporary folder (see {@link FenceFolder}): placed right in the temporary folder, that is
 * one `lstat` per use, which is also the look a claim's listing of the slots needs. Every
 * process sharing a workspace must run as the same user and see the same temporary folder.
 * Tokens must come from one coordinator namespace (or be otherwise comparable).
 *
 * @example
 * ```ts
 * const fence = HostFence.forUser();
 * await fence.claim({ keys: [key], token: context.fencingToken, what: '`notes.txt`' });
 * // ... read, compute ...
 * await fence.commit(
 *   { keys: [key], token: context.fencingToken, what: '`notes.txt`', markCommitted: context.markCommitted },
 *   () => rename(draft, target),
 * );
 * ```
 * @see FS_HOST_FENCE
 */
export class HostFence {
  /** The fence's folder. */
  readonly dir: string;
  /** The folder its ownership checks go up to (not included). */
  readonly tempDir: string;
  readonly #folder: FenceFolder;
  readonly #lock: HostCommitLock;
  readonly #store: FenceStore;
  /** Whether this fence's records hold its process's arrival (see `FenceStore.arrive`). */
  #arrived = false;

  constructor(options: HostFenceOptions) {
    checkOptions({
      subject: 'HostFence',
      options,
      rules: {
        dir: optionRules.nonEmptyString,
        tempDir: optionRules.nonEmptyString,
        maxWaitMs: optionRules.integerFrom(1),
      },
      required: ['dir'],
      error: invalidOptions,
    });
    this.dir = resolve(options.dir);
    this.tempDir = resolve(options.tempDir ?? resolve(this.dir, '..'));
    // the slots and sockets right in the fence's folder: no folder of their own to check per use
    const folder = new FenceFolder({ dir: this.dir, tempDir: this.tempDir });
    this.#folder = folder;
    this.#lock = new HostCommitLock({
      folder,
      maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_COMMIT_WAIT_MS,
    });
    this.#store = new FenceStore({ file: join(this.dir, 'tokens.log') });
    storesOf.set(this.#store.file, (storesOf.get(this.#store.file) ?? 0) + 1);
  }

  /**
   * The fence of this user in `tempDir` (default `os.tmpdir()`): one instance per folder and
   * wait per process.
   */
  static forUser(
    options: {
      readonly tempDir?: string | undefined;
      readonly maxWaitMs?: number | undefined;
    } = {},
  ): HostFence {
    checkOptions({
      subject: 'HostFence.forUser',
      options,
      rules: { tempDir: optionRules.nonEmptyString, maxWaitMs: optionRules.integerFrom(1) },
      error: invalidOptions,
    });
    const tempDir = resolve(options.tempDir ?? tmpdir());
    const dir = join(tempDir, `toolwaves-fence-${process.getuid?.() ?? 'user'}`);
    const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_COMMIT_WAIT_MS;
    const name = `${dir}\0${maxWaitMs}`;
    let fence = shared.get(name);
    if (fence === undefined) {
      fence = new HostFence({ dir, tempDir, maxWaitMs });
      shared.set(name, fence);
    }
    return fence;
  }

  /**
   * Records the call's token for its keys when its tool starts, so an older holder still running
   * (its lease lost) is refused from now on. Throws {@link FsToolsError} `stale_token` when a newer
   * token is already recorded: this call's own lease is the stale one. No token: nothing to do.
   */
  async claim(write: FencedWrite): Promise<void> {
    if (write.token === undefined) return;
    if (write.signal?.aborted) throw stoppedBeforeCommit(write);
    this.#folder.prepare();
    const publishing = this.#lock.publish();
    if (publishing !== undefined) await publishing;
    this.#arrive();
    // Recorded first, into the record file this process opened and checked: a record of a token
    // that turns out stale only refuses writers older than a grant the coordinator made, which
    // are stale too. So the folder is checked once, after the append, and that look at it is
    // also the listing's; and when nothing but this record was appended since the last read,
    // the records are not read again.
    const { keys, token } = write;
    const appended = this.#store.append(keys, token);
    const looked = this.#folder.check();
    checkedByClaim.add(write);
    const alone = this.#alone(looked);
    if (!this.#store.settle({ keys, token, appended, alone })) this.#store.refresh();
    const newer = this.#store.newerThan(write.keys, write.token);
    if (newer !== undefined) throw staleToken(write, newer);
    // the records were just read to their end (or known to be: alone), after this record
    const records = { arrivals: this.#store.arrivals, current: () => true };
    // A commit of an older token that checked the records before this one was appended may
    // still be writing: wait for it to finish, so what this call reads next includes its write.
    // A commit that checks after the append is refused. So no lock is needed for the claim.
    try {
      const waiting = this.#lock.awaitClear({
        keys: write.keys,
        what: write.what,
        signal: write.signal,
        looked,
        records,
      });
      if (waiting !== undefined) await waiting;
    } catch (error) {
      throw write.signal?.aborted ? stoppedBeforeCommit(write) : error;
    }
  }

  /**
   * Runs `apply` (the write itself: a rename, an unlink) inside the host's commit step for the
   * write's keys, after checking that no newer token was recorded for them, and records the
   * token; `markCommitted` is called between the check and `apply`. Throws {@link FsToolsError} `stale_token` (nothing
   * written) when a newer token was recorded, `stopped` when the call was stopped (its signal
   * aborted: a lost lease, a timeout) before the commit, `commit_blocked` when an overlapping
   * commit held the step longer than `maxWaitMs`, `fence_unsafe` / `fence_error` when the
   * fence's own folder cannot be trusted or used. Without a token the step is only the lock:
   * `apply` still runs alone among overlapping commits of the host (what `edit_file` needs to
   * compare and write at once).
   */
  async commit<T>(write: FencedWrite, apply: () => Promise<T>): Promise<T> {
    if (write.signal?.aborted) throw stoppedBeforeCommit(write);
    if (!this.#arrived) {
      this.#folder.prepare();
      const publishing = this.#lock.publish();
      if (publishing !== undefined) await publishing;
      this.#arrive();
    }
    let release: Release;
    try {
      const taken = this.#lock.acquire({
        keys: write.keys,
        what: write.what,
        signal: write.signal,
        checked: checkedByClaim.has(write),
        records: this.#store,
      });
      release = typeof taken === 'function' ? taken : await taken;
    } catch (error) {
      throw write.signal?.aborted ? stoppedBeforeCommit(write) : error;
    }
    let result: T;
    try {
      if (write.signal?.aborted) throw stoppedBeforeCommit(write);
      if (write.token !== undefined) {
        // the listing taken right after this commit's intent: alone, nothing new to read
        if (!this.#alone()) this.#store.refresh();
        const newer = this.#store.newerThan(write.keys, write.token);
        if (newer !== undefined) throw staleToken(write, newer);
        // recorded before the effect: a full or read-only fence folder fails with nothing written
        this.#store.record(write.keys, write.token);
      }
      // Passed the fence: the effect happens now whatever becomes of the lease (nobody can
      // overtake this step), so the tool's own answer says what it was, even if the lease is
      // lost while `apply` runs (a pause right here).
      write.markCommitted?.();
      result = await apply();
    } finally {
      release();
    }
    // best effort: a compaction that cannot run now is tried again after a later commit
    if (this.#store.wantsCompaction) await this.#compact().catch(() => undefined);
    return result;
  }

  /**
   * Whether nobody else can have appended to the token records since this process last read
   * them all: no other process has had a slot in the folder since before that read (every
   * process makes its slot before it records anything), as the listing taken now with `looked`
   * (else the last one) tells, and this is the only store of the file in this process.
   */
  #alone(looked?: Stats): boolean {
    const since = this.#lock.aloneSince(looked);
    return (
      since !== undefined && since <= this.#store.readTick && storesOf.get(this.#store.file) === 1
    );
  }

  /**
   * Appends this process's arrival to the records once, right after its slot is out and before
   * this fence writes or reads anything else (see `ArrivalRecords`).
   */
  #arrive(): void {
    if (this.#arrived) return;
    const beacon = this.#lock.beaconId();
    if (beacon === undefined) return;
    this.#store.arrive(beacon);
    this.#arrived = true;
  }

  async #compact(): Promise<void> {
    const release = await this.#lock.acquire({ keys: [EVERY_KEY], what: 'the token records' });
    try {
      this.#store.refresh();
      if (this.#store.wantsCompaction) this.#store.compact();
    } finally {
      release();
    }
  }
}

function staleToken(write: FencedWrite, newer: NewerToken): FsToolsError {
  return new FsToolsError({
    code: 'stale_token',
    message: `refused to write ${write.what}: a newer fleet lock (token ${newer.token} on ${newer.key}) was granted after this call's (token ${write.token}), so this call's lease ran out while it was running; nothing was written`,
  });
}
