import type { Stats } from 'node:fs';
import type { Socket } from 'node:net';
import { CommitIntent, EVERY_KEY } from './commit-intent.js';
import { overlappingPeers, type Peer, probe, waitForTurn } from './commit-peers.js';
import { FenceBeacon } from './fence-beacon.js';
import { commitBlocked } from './fence-errors.js';
import type { FenceFolder } from './fence-folder.js';
import { describeHolder } from './process-identity.js';
import { type ArrivalRecords, confirmListing, listedAlone, soleSince } from './slot-listing.js';

/** How long to wait before looking again at a peer whose connection queue is full. */
const BUSY_RETRY_MS = 5;

/** Options of {@link HostCommitLock.acquire} and {@link HostCommitLock.awaitClear}. */
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
  /**
   * The fence folder was checked for this write already (its claim did): the commit only lists
   * the folder. Otherwise it is checked right after the commit's intent is written, and that
   * look at the folder is also the listing's.
   */
  readonly checked?: boolean | undefined;
  /**
   * The caller's token records, read live (`current` looks at the file): when the folder's
   * listing is too young to be reused by its age, they tell whether a process made its slot
   * since; a commit's look after its intent asks them first (see `listSlots`).
   */
  readonly records?: ArrivalRecords | undefined;
}

/** Options of {@link HostCommitLock.awaitClear}. */
export interface AwaitClearOptions extends AcquireOptions {
  /** The caller's check of the folder, taken after its record: the first listing uses it. */
  readonly looked?: Stats | undefined;
}

/**
 * The host's commit step, per key: a commit waits only for commits of overlapping keys (the
 * planner's rule: a key, its ancestors, its descendants), in any process of the host that sees
 * the same fence folder, and not at all for commits of other files.
 *
 * How: a commit writes a {@link CommitIntent} (its keys, named after its process's
 * {@link FenceBeacon}), then lists the intents of overlapping keys. None: it holds the step. An
 * older one: it gives its turn back and waits on that one's beacon, which closes the connection
 * when that intent ends or its process dies; a younger one: it keeps its turn and waits for the
 * younger to give way. Two conflicting commits cannot both hold: the later to write its intent
 * lists the earlier. Liveness is the kernel's answer on the beacon, true across PID namespaces
 * (containers sharing the folder); a stopped holder (`SIGSTOP`, a frozen container) still lives,
 * so the others wait, up to `maxWaitMs`, then fail with `commit_blocked` naming it (safety over
 * liveness).
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
    FenceBeacon.checkPathLength(options.folder);
    this.#folder = options.folder;
    this.#maxWaitMs = options.maxWaitMs;
  }

  /**
   * Takes the step on `keys`: the function that gives it back, at once when no overlapping
   * commit is under way (the common case: no promise is made, so the caller's commit goes on
   * in the same tick), else a promise of it. Throws (or rejects) with the signal's reason when
   * aborted, and with `FsToolsError` `commit_blocked` after `maxWaitMs` of waiting; nothing is
   * held then.
   */
  acquire(options: AcquireOptions): Release | Promise<Release> {
    this.#folder.prepare();
    const beacon = FenceBeacon.current(this.#folder);
    if (beacon === undefined) {
      // publishing (the first commit of this process) took a while
      return FenceBeacon.of(this.#folder).then((published) => this.#take(options, published));
    }
    return this.#take(options, beacon);
  }

  #take(options: AcquireOptions, beacon: FenceBeacon): Release | Promise<Release> {
    // a commit that names no key may touch anything: it excludes every other (fail closed)
    const keys = options.keys.length === 0 ? [EVERY_KEY] : options.keys;
    const intent = new CommitIntent({ beacon, keys });
    let waiting: Promise<void> | undefined;
    try {
      waiting = this.#waitWhileBlocked(options, {
        keys: intent.keys,
        intent,
        beacon,
        // checked once the intent is out (written into this process's own slot file), so that
        // look at the folder is the listing's too: one `lstat` fewer per commit
        looked: options.checked === true ? undefined : 'check',
        records: options.records,
      });
    } catch (error) {
      intent.yieldTurn();
      throw error;
    }
    if (waiting === undefined) return () => this.#release(intent, beacon);
    return waiting.then(
      () => () => this.#release(intent, beacon),
      (error: unknown) => {
        intent.yieldTurn();
        throw error;
      },
    );
  }

  /**
   * Ends a commit's intent. When the folder's listing (taken after the intent was written)
   * showed no other process, its slot is rewritten a moment later rather than now: nobody else
   * was reading it, and a process that arrives meanwhile is answered by the beacon, which
   * rewrites it first (see `FenceBeacon.deactivate`).
   */
  #release(intent: CommitIntent, beacon: FenceBeacon): void {
    intent.yieldTurn({ lazily: listedAlone(this.#folder, beacon.id) });
  }

  /**
   * Makes this process's slot and socket in the folder on its first use (`undefined` when they
   * are out already): before anything else is written into the fence, so that a listing showing
   * no other slot tells that no other process wrote anything (see `aloneSince`).
   */
  publish(): Promise<unknown> | undefined {
    return FenceBeacon.current(this.#folder) === undefined
      ? FenceBeacon.of(this.#folder)
      : undefined;
  }

  /**
   * Since when (`performance.now()`) no other process has had a slot in the folder, as a
   * listing tells: one taken now with the caller's look at the folder (`looked`), else the last
   * one taken (a commit takes one right after writing its intent). `undefined` when another
   * process has one, when the listing cannot tell yet, or before this process's slot is out.
   */
  aloneSince(looked?: Stats): number | undefined {
    const beacon = FenceBeacon.current(this.#folder);
    if (beacon === undefined) return undefined;
    if (looked !== undefined && !confirmListing(this.#folder, looked)) return undefined;
    return soleSince(this.#folder, beacon.id);
  }

  /**
   * Waits until no commit of keys overlapping `keys` is under way, holding nothing: what a claim
   * needs after recording its token, so that a commit that checked the tokens before the record
   * has finished writing before the claimer reads. The caller has checked the folder (after its
   * record: `looked`). `undefined` when nothing had to be waited for (no promise to await then).
   */
  awaitClear(options: AwaitClearOptions): Promise<void> | undefined {
    const keys = options.keys.length === 0 ? [EVERY_KEY] : options.keys;
    const beacon = FenceBeacon.current(this.#folder);
    if (beacon === undefined) {
      // publishing took a while: the folder is looked at again
      return FenceBeacon.of(this.#folder).then((published) =>
        this.#waitWhileBlocked(options, { keys, intent: undefined, beacon: published }),
      );
    }
    return this.#waitWhileBlocked(options, {
      keys,
      intent: undefined,
      beacon,
      looked: options.looked,
      records: options.records,
    });
  }

  /**
   * Claims the turn (when `mine` has an intent) and looks for overlapping intents: none, and it
   * returns `undefined` at once, with no promise made (the common case: commits of different
   * files); else a promise of {@link HostCommitLock.#waitForPeers}. Throws the signal's reason.
   */
  #waitWhileBlocked(options: AcquireOptions, mine: Mine): Promise<void> | undefined {
    options.signal?.throwIfAborted();
    mine.intent?.claim();
    const looked = mine.looked === 'check' ? this.#folder.check() : mine.looked;
    const peers = this.#overlapping(mine, looked);
    if (peers.length === 0) return undefined;
    return this.#waitForPeers(options, mine, peers);
  }

  async #waitForPeers(options: AcquireOptions, mine: Mine, first: Peer[]): Promise<void> {
    const { intent } = mine;
    const deadline = performance.now() + this.#maxWaitMs;
    let peers: Peer[] | undefined = first;
    for (;;) {
      if (peers === undefined) {
        options.signal?.throwIfAborted();
        intent?.claim();
        peers = this.#overlapping(mine);
      }
      const blocking = await this.#firstLivePeer(peers);
      peers = undefined;
      if (blocking === undefined) return;
      // an older intent goes first; a younger one gives way to this one
      if (intent === undefined || blocking.peer.id < intent.id) intent?.yieldTurn();
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
        const { holder } = blocking.peer;
        throw commitBlocked({
          what: options.what,
          waitedMs: this.#maxWaitMs,
          holder: holder === undefined ? 'a process not yet known' : describeHolder(holder),
        });
      }
    }
  }

  /** The intents of overlapping keys, oldest first. */
  #overlapping(mine: Mine, looked?: Stats): Peer[] {
    return overlappingPeers(this.#folder, {
      selfId: mine.intent?.id,
      own: mine.beacon,
      keys: mine.keys,
      looked,
      records: mine.records,
      // a commit's intent is out before each listing, and its records are read live
      recordsAfterWrite: mine.intent !== undefined,
    });
  }

  /** This process's beacon id in the folder, once published. */
  beaconId(): string | undefined {
    return FenceBeacon.current(this.#folder)?.id;
  }

  /** The oldest live one of `peers`, with a connection to it (none when busy). */
  async #firstLivePeer(
    peers: readonly Peer[],
  ): Promise<{ peer: Peer; socket: Socket | undefined } | undefined> {
    for (const peer of peers) {
      const found = await probe(this.#folder, peer);
      if (found.state === 'live') return { peer, socket: found.socket };
      if (found.state === 'busy') return { peer, socket: undefined };
    }
    return undefined;
  }
}

/** Gives the commit step back. */
export type Release = () => void;

/** The commit that waits: its keys, its intent (none for a claim), its process's beacon. */
interface Mine {
  readonly keys: readonly string[];
  readonly intent: CommitIntent | undefined;
  readonly beacon: FenceBeacon;
  /**
   * For the first listing: the caller's `lstat` of the folder, taken after its record, or
   * `'check'`: check the folder after the intent is written, and list with that look.
   */
  readonly looked?: Stats | 'check' | undefined;
  /** The caller's token records, for the first listing (see `AcquireOptions.records`). */
  readonly records?: ArrivalRecords | undefined;
}
