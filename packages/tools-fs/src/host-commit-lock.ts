import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { currentProcess, isAlive, type ProcessIdentity } from './process-identity.js';

/** How long a waiter sleeps between looks at a held lock: from 1 ms, doubling, at most 25 ms. */
const FIRST_WAIT_MS = 1;
const LONGEST_WAIT_MS = 25;

/** Lock entries: `lock.<generation>` (held) and `free.<generation>` (given back). */
const ENTRY = /^(lock|free)\.(\d+)$/;
/** A lock entry being written, `draft.<pid>.<nonce>`. */
const DRAFT = /^draft\.(\d+)\./;

/** Same-process callers queue here (per folder) instead of polling the files. */
const inProcess = new Map<string, Promise<unknown>>();

/**
 * A lock shared by every process of the host, in a folder of its own: the one commit step of
 * the fs write tools (see {@link HostFence}). Its holder is a live process: one whose id (and,
 * on Linux, start time) is written in the lock.
 *
 * How it works, with nothing ever deleted by a process that does not hold the lock: the lock is
 * a sequence of generations. The newest entry tells the state: `free.<g>` (given back) or
 * `lock.<g>` (held, unless its holder no longer exists). A process that sees generation `g`
 * free creates `lock.<g+1>` with its identity in one step (`link` of a file already written, so
 * two processes can never both create it), then looks again: if a newer generation or
 * `free.<g+1>` (an older use of that name) is there, it was late, removes its entry and starts
 * over; otherwise it holds the lock and removes the older generations. Giving it back renames
 * `lock.<g>` to `free.<g>`. A holder that died is passed over; a holder that is paused
 * (`SIGSTOP`, a frozen container, a debugger) still exists, so every other process waits for it:
 * safety over liveness.
 *
 * @example
 * ```ts
 * const lock = new HostCommitLock({ dir: '/tmp/toolwaves-1000/fence-ab12/commit' });
 * const release = await lock.acquire();
 * try { await commit(); } finally { await release(); }
 * ```
 * @see HostFence
 */
export class HostCommitLock {
  readonly dir: string;
  readonly #self: ProcessIdentity;

  constructor(options: { readonly dir: string }) {
    this.dir = options.dir;
    this.#self = currentProcess();
  }

  /**
   * Waits for the lock (first behind the callers of this process, then across processes) and
   * resolves with the function that gives it back. Rejects with the signal's reason if `signal`
   * is aborted while it waits (nothing is held then).
   */
  acquire(
    options: { readonly signal?: AbortSignal | undefined } = {},
  ): Promise<() => Promise<void>> {
    const before = inProcess.get(this.dir) ?? Promise.resolve();
    let done: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tail = before.then(() => mine);
    inProcess.set(this.dir, tail);
    const forget = (): void => {
      done();
      if (inProcess.get(this.dir) === tail) inProcess.delete(this.dir);
    };
    return before
      .then(() => this.#acquireAcrossProcesses(options.signal))
      .then(
        (release) => async () => {
          try {
            await release();
          } finally {
            forget();
          }
        },
        (error: unknown) => {
          forget();
          throw error;
        },
      );
  }

  async #acquireAcrossProcesses(signal: AbortSignal | undefined): Promise<() => Promise<void>> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const nonce = randomBytes(8).toString('hex');
    const content = `${this.#self.pid} ${this.#self.startTime} ${nonce}\n`;
    const draft = join(this.dir, `draft.${this.#self.pid}.${nonce}`);
    await writeFile(draft, content, { mode: 0o600 });
    try {
      let waitMs = FIRST_WAIT_MS;
      for (;;) {
        signal?.throwIfAborted();
        const newest = await this.#newest();
        if (newest.held !== undefined && isAlive(newest.held)) {
          await sleep(waitMs);
          waitMs = Math.min(waitMs * 2, LONGEST_WAIT_MS);
          continue;
        }
        const generation = newest.generation + 1;
        const entry = join(this.dir, `lock.${generation}`);
        try {
          await link(draft, entry);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw error;
        }
        const after = await this.#newest();
        if (after.generation !== generation || after.freed) {
          // late: a newer generation exists, or this name was used and given back before
          await unlink(entry).catch(() => undefined);
          continue;
        }
        await this.#removeOlderThan(generation);
        return () => rename(entry, join(this.dir, `free.${generation}`));
      }
    } finally {
      await unlink(draft).catch(() => undefined);
    }
  }

  /** The newest generation, whether it was given back, and who holds it if not. */
  async #newest(): Promise<{ generation: number; freed: boolean; held?: ProcessIdentity }> {
    let generation = 0;
    let freed = false;
    let locked = false;
    for (const name of await readdir(this.dir)) {
      const match = ENTRY.exec(name);
      if (match === null) continue;
      const g = Number(match[2]);
      if (g > generation) {
        generation = g;
        freed = false;
        locked = false;
      }
      if (g === generation) {
        if (match[1] === 'free') freed = true;
        else locked = true;
      }
    }
    if (freed || !locked) return { generation, freed };
    const held = await this.#holderOf(generation);
    return held === undefined ? { generation, freed } : { generation, freed, held };
  }

  async #holderOf(generation: number): Promise<ProcessIdentity | undefined> {
    let text: string;
    try {
      text = await readFile(join(this.dir, `lock.${generation}`), 'utf8');
    } catch {
      // given back (renamed) since the listing: counted as held by this process, so the caller
      // waits a moment and looks again
      return { pid: process.pid, startTime: '' };
    }
    const [pid, startTime] = text.trim().split(' ');
    return { pid: Number(pid), startTime: startTime ?? '' };
  }

  /** Removes the older generations, and the drafts of processes that died before removing theirs. */
  async #removeOlderThan(generation: number): Promise<void> {
    for (const name of await readdir(this.dir)) {
      const match = ENTRY.exec(name);
      const draft = DRAFT.exec(name);
      const old = match !== null && Number(match[2]) < generation;
      const orphan = draft !== null && !isAlive({ pid: Number(draft[1]), startTime: '' });
      if (old || orphan) await unlink(join(this.dir, name)).catch(() => undefined);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
