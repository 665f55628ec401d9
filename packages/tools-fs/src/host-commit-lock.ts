import { link, mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { currentProcess, isAlive, type ProcessIdentity } from './process-identity.js';

/** How long a waiter sleeps between looks at a held lock: from 1 ms, doubling, at most 25 ms. */
const FIRST_WAIT_MS = 1;
const LONGEST_WAIT_MS = 25;

/** Lock entries: `lock.<generation>` (held) and `free.<generation>` (given back). */
const ENTRY = /^(lock|free)\.(\d+)$/;
/** A process's lock entry before it is linked, `draft.<pid>.<start time>`. */
const DRAFT = /^draft\.(\d+)\.(\w+)$/;

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
  #drafted: string | undefined;

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
    const draft = await this.#draft();
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
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          this.#drafted = undefined; // the folder was removed under us: write the draft again
          continue;
        }
        throw error;
      }
      const names = await readdir(this.dir);
      const after = newestOf(names);
      if (after.generation !== generation || after.freed) {
        // late: a newer generation exists, or this name was used and given back before
        await unlink(entry).catch(() => undefined);
        continue;
      }
      await this.#removeOlderThan(generation, names);
      return () => rename(entry, join(this.dir, `free.${generation}`));
    }
  }

  /**
   * This process's lock entry, written once (`draft.<pid>.<start time>`) and linked as
   * `lock.<g>` each time: a lock entry appears whole, never half-written.
   */
  async #draft(): Promise<string> {
    if (this.#drafted !== undefined) return this.#drafted;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const draft = join(this.dir, `draft.${this.#self.pid}.${this.#self.startTime || 'x'}`);
    await writeFile(draft, `${this.#self.pid} ${this.#self.startTime}\n`, { mode: 0o600 });
    this.#drafted = draft;
    return draft;
  }

  /** The newest generation, whether it was given back, and who holds it if not. */
  async #newest(): Promise<{ generation: number; freed: boolean; held?: ProcessIdentity }> {
    const newest = newestOf(await readdir(this.dir));
    if (newest.freed || !newest.locked) return newest;
    const held = await this.#holderOf(newest.generation);
    return held === undefined ? newest : { ...newest, held };
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

  /** Removes the older generations, and the drafts of processes that no longer exist. */
  async #removeOlderThan(generation: number, names: readonly string[]): Promise<void> {
    for (const name of names) {
      const match = ENTRY.exec(name);
      const draft = DRAFT.exec(name);
      const old = match !== null && Number(match[2]) < generation;
      const startTime = draft?.[2] === 'x' ? '' : (draft?.[2] ?? '');
      const orphan = draft !== null && !isAlive({ pid: Number(draft[1]), startTime });
      if (old || orphan) await unlink(join(this.dir, name)).catch(() => undefined);
    }
  }
}

/** The newest generation among the entry names, and whether it is given back or held. */
function newestOf(names: readonly string[]): {
  generation: number;
  freed: boolean;
  locked: boolean;
} {
  let generation = 0;
  let freed = false;
  let locked = false;
  for (const name of names) {
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
  return { generation, freed, locked };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
