import type { Socket } from 'node:net';
import { CommitIntent, EVERY_KEY } from './commit-intent.js';
import { overlappingPeers, type Peer, probe, waitForTurn } from './commit-peers.js';
import { commitBlocked } from './fence-errors.js';
import type { FenceFolder } from './fence-folder.js';
import { describeHolder } from './process-identity.js';

/** How long to wait before looking again at a peer whose connection queue is full. */
const BUSY_RETRY_MS = 5;

/** Options of {@link HostCommitLock.acquire}. */
export interface AcquireOptions {
  /**
   * The keys the commit changes: it waits only for commits of overlapping keys. None: it waits
   * for every commit, and every commit waits for it.
   */
  readonly keys: readonly string[];
  /** Names the write in a `commit_blocked` refusal, e.g. `` `a.txt` ``. */
  readonly what: string;
  /** Aborted while waiting: rejects with the signal's reason, holding nothing. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The host's commit step, per key: a commit waits only for commits of overlapping keys (the
 * planner's rule: a key, its ancestors, its descendants), in any process of the host that sees
 * the same fence folder, and not at all for commits of other files.
 *
 * How: each commit publishes a {@link CommitIntent} (its keys, and a Unix socket it listens on),
 * then lists the intents of overlapping keys. None: it holds the step. An older one: it gives its
 * turn back and waits on a connection to that one's socket, which the kernel closes when that
 * intent ends or its process dies; a younger one: it keeps its turn and waits for the younger to
 * give way. Two conflicting commits cannot both hold: the later to publish lists the earlier.
 * Liveness is the kernel's answer on the socket, true across PID namespaces (containers sharing
 * the folder), and a stopped holder (`SIGSTOP`, a frozen container) still lives: the others
 * wait, up to `maxWaitMs`, then fail with `commit_blocked` naming it (safety over liveness).
 *
 * @example
 * ```ts
 * const lock = new HostCommitLock({ folder, maxWaitMs: 5000 });
 * const release = await lock.acquire({ keys: ['fs:/srv/repo/a.ts'], what: '`a.ts`' });
 * try { await commit(); } finally { release(); }
 * ```
 * @see HostFence
 */
export class HostCommitLock {
  readonly #folder: FenceFolder;
  readonly #maxWaitMs: number;

  constructor(options: { readonly folder: FenceFolder; readonly maxWaitMs: number }) {
    this.#folder = options.folder;
    this.#maxWaitMs = options.maxWaitMs;
  }

  /**
   * Waits for the step on `keys` and resolves with the function that gives it back. Rejects
   * with the signal's reason when aborted, and with `FsToolsError` `commit_blocked` after
   * `maxWaitMs` of waiting; nothing is held then.
   */
  async acquire(options: AcquireOptions): Promise<() => void> {
    this.#folder.check();
    // a commit that names no key may touch anything: it excludes every other (fail closed)
    const keys = options.keys.length === 0 ? [EVERY_KEY] : options.keys;
    const intent = CommitIntent.create(this.#folder, keys);
    const deadline = performance.now() + this.#maxWaitMs;
    try {
      for (;;) {
        options.signal?.throwIfAborted();
        await intent.claim();
        const blocking = await this.#firstLivePeer(intent);
        if (blocking === undefined) return () => intent.end();
        // an older intent goes first; a younger one gives way to this one
        if (blocking.peer.id < intent.id) intent.yieldTurn();
        const left = deadline - performance.now();
        const waited =
          left <= 0
            ? 'timeout'
            : await waitForTurn({
                socket: blocking.socket,
                ms: blocking.socket === undefined ? Math.min(BUSY_RETRY_MS, left) : left,
                signal: options.signal,
              });
        if (waited === 'aborted') options.signal?.throwIfAborted();
        if (waited === 'timeout') {
          throw commitBlocked({
            what: options.what,
            waitedMs: this.#maxWaitMs,
            holder:
              blocking.peer.holder === undefined
                ? 'unknown process'
                : describeHolder(blocking.peer.holder),
          });
        }
      }
    } catch (error) {
      intent.end();
      throw error;
    }
  }

  /** The oldest live intent of overlapping keys, with a connection to it (none when busy). */
  async #firstLivePeer(
    intent: CommitIntent,
  ): Promise<{ peer: Peer; socket: Socket | undefined } | undefined> {
    const peers = overlappingPeers(this.#folder, { selfId: intent.id, keys: intent.keys });
    for (const peer of peers) {
      const found = await probe(this.#folder, peer);
      if (found.state === 'live') return { peer, socket: found.socket };
      if (found.state === 'busy') return { peer, socket: undefined };
    }
    return undefined;
  }
}
