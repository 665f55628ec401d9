import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './fleet-keys.js';
import { fleetScripts, scriptCommand } from './fleet-scripts.js';
import type { RequestShape } from './request-shape.js';

/** An uncontended acquire waiting for the next GRANT-AT-ONCE. */
export interface PendingAcquire {
  readonly shape: RequestShape;
  readonly id: string;
  readonly granted: (token: number, sentAt: number) => void;
  /** Not granted at once (something overlaps it, or order demands it): it goes through ENQUEUE. */
  readonly notGranted: () => void;
  readonly failed: (error: unknown) => void;
}

/** A release of a request granted at once, waiting for the next RELEASE-AT-ONCE. */
interface PendingRelease {
  readonly shape: RequestShape;
  readonly id: string;
}

/** How many GRANT-AT-ONCE calls may be out at once (Redis works on one while the next is read). */
const MOST_IN_FLIGHT = 4;

/**
 * The requests of one coordinator that may be granted at once (no limit, not exclusive) and
 * their releases, gathered while the current task runs and sent together when it ends (a
 * microtask): one GRANT-AT-ONCE that takes out the releases first and then grants the acquires
 * (RELEASE-AT-ONCE alone when no acquire goes with them). So the calls a process asks for at the
 * same moment cost Redis one script call, not one each, and still one round trip apiece; a
 * worker that gives a lock back and asks for the next one costs one script call per cycle.
 *
 * Order is kept as asked. A request that GRANT-AT-ONCE could not grant goes through ENQUEUE
 * before anything asked after it: the script grants nothing after it in its own call, a call
 * that was already out when the answer came is undone (what it granted is released, and each of
 * its requests goes through ENQUEUE too, in order), and ENQUEUEs (`after`) and later acquires
 * wait until the calls out have answered.
 */
export class AtOnceBatch {
  readonly #connection: FleetConnection;
  readonly #keys: FleetKeys;
  readonly #leaseArg: string;
  readonly #followUp: (shape: RequestShape, id: string) => void;
  #acquires: PendingAcquire[] = [];
  #releases: PendingRelease[] = [];
  #scheduled = false;
  #releasesScheduled: ReturnType<typeof setImmediate> | undefined;
  /** GRANT-AT-ONCE calls out. */
  #inFlight = 0;
  /** What must wait for the calls out to answer, in the order it was asked. */
  #waiting: (PendingAcquire | (() => void))[] = [];
  /** Calls numbered below this were out when a request was not granted: they are undone. */
  #undoBefore = 0;
  #sent = 0;

  constructor(options: {
    connection: FleetConnection;
    keys: FleetKeys;
    leaseMs: number;
    /** Hands on and announces the departure of a released request someone may wait for. */
    followUp: (shape: RequestShape, id: string) => void;
  }) {
    this.#connection = options.connection;
    this.#keys = options.keys;
    this.#leaseArg = String(options.leaseMs);
    this.#followUp = options.followUp;
  }

  acquire(pending: PendingAcquire): void {
    if (this.#waiting.length > 0) {
      this.#waiting.push(pending);
      return;
    }
    this.#acquires.push(pending);
    this.#schedule();
  }

  /** Runs `send` (an ENQUEUE) once every acquire asked before it has been answered or sent. */
  after(send: () => void): void {
    this.flushReleases();
    if (this.#acquires.length > 0) {
      if (this.#inFlight < MOST_IN_FLIGHT) this.#sendAcquires();
      else this.#waiting.push(...this.#acquires.splice(0));
    }
    if (this.#inFlight > 0 || this.#waiting.length > 0) this.#waiting.push(send);
    else send();
  }

  /**
   * Gathers a release. It goes with the next GRANT-AT-ONCE when an acquire is asked in the same
   * task (a worker that gives a lock back and asks for the next one, as every worker of a
   * process does when one answer grants them all); else alone, once the task and the callbacks
   * of this turn of the event loop are done (`setImmediate`, the turn node-redis writes in).
   */
  release(pending: PendingRelease): void {
    this.#releases.push(pending);
    this.#releasesScheduled ??= setImmediate(this.#flushGatheredReleases);
  }

  /**
   * Sends what is gathered: the releases with the acquires in one call when they can go now,
   * else the releases alone (the acquires go as many calls out as allowed).
   */
  readonly flush = (): void => {
    this.#scheduled = false;
    if (this.#acquires.length > 0) {
      // behind something that waits for the calls out: keep the order
      if (this.#waiting.length > 0) this.#waiting.push(...this.#acquires.splice(0));
      // else sent now (the releases with them), or by the next answer when the most calls are out
      else if (this.#inFlight < MOST_IN_FLIGHT) this.#sendAcquires();
    }
    this.flushReleases();
  };

  readonly #flushGatheredReleases = (): void => {
    this.#releasesScheduled = undefined;
    this.flushReleases();
  };

  /** Sends the gathered releases. */
  flushReleases(): void {
    if (this.#releases.length > 0) this.#sendReleases(this.#releases.splice(0));
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(this.flush);
  }

  /** Sends one GRANT-AT-ONCE: the gathered releases, then the gathered acquires. */
  #sendAcquires(): void {
    const acquires = this.#acquires.splice(0);
    const releases = this.#releases.splice(0);
    const number = this.#sent;
    this.#sent += 1;
    this.#inFlight += 1;
    const keys = this.#keys;
    const script = fleetScripts().grantAtOnce;
    const command = scriptCommand(
      script,
      [keys.fence, keys.leases, keys.present, keys.entries, keys.queue, keys.exclusive],
      [this.#leaseArg, String(releases.length)],
    );
    for (const { id, shape } of releases) command.push(id, shape.packed);
    for (const { id, shape } of acquires) command.push(id, shape.packed);
    const sentAt = performance.now();
    const answered = this.#connection.run(script, command);
    // the releases in it finish on their own: close() waits for them
    if (releases.length > 0) this.#connection.inBackground(answered);
    answered.then(
      ({ followUp, tokens }) => {
        this.#inFlight -= 1;
        this.#followUpAll(releases, followUp);
        const undo = number < this.#undoBefore;
        let inOrder = true;
        for (const [i, pending] of acquires.entries()) {
          const token = tokens[i] ?? 0;
          if (token > 0 && !undo) {
            pending.granted(token, sentAt);
            continue;
          }
          // granted out of order (a request asked before it was not): give it back, queue it
          if (token > 0) this.release(pending);
          inOrder = false;
          pending.notGranted();
        }
        if (!inOrder) this.#undoBefore = this.#sent;
        this.#drain();
      },
      (error: unknown) => {
        this.#inFlight -= 1;
        for (const pending of acquires) {
          // the script may have run with its answer lost: take out whatever it granted
          this.release(pending);
          pending.failed(error);
        }
        this.#drain();
      },
    );
  }

  /**
   * After an answer: once no call is out, sends in order what waited, up to the next
   * GRANT-AT-ONCE it needs; when nothing waits, sends the acquires gathered meanwhile.
   */
  #drain(): void {
    if (this.#waiting.length === 0) {
      if (this.#acquires.length > 0 && this.#inFlight < MOST_IN_FLIGHT) this.#sendAcquires();
      return;
    }
    if (this.#inFlight > 0) return;
    while (this.#waiting.length > 0 && this.#inFlight === 0) {
      const next = this.#waiting.shift() as PendingAcquire | (() => void);
      if (typeof next !== 'function') {
        this.#acquires.push(next);
      } else if (this.#acquires.length > 0) {
        this.#sendAcquires();
        this.#waiting.unshift(next);
      } else {
        this.flushReleases();
        next();
      }
    }
    if (this.#acquires.length > 0) this.#schedule();
  }

  #sendReleases(releases: readonly PendingRelease[]): void {
    const keys = this.#keys;
    const script = fleetScripts().releaseAtOnce;
    const command = scriptCommand(script, [
      keys.leases,
      keys.present,
      keys.entries,
      keys.queue,
      keys.exclusive,
    ]);
    for (const { id, shape } of releases) command.push(id, shape.packed);
    this.#connection.inBackground(
      this.#connection
        .run(script, command)
        .then((positions) => this.#followUpAll(releases, positions)),
    );
  }

  /** Hands on the releases (of `releases`, 1-based `positions`) that someone may wait for. */
  #followUpAll(releases: readonly PendingRelease[], positions: readonly number[]): void {
    for (const position of positions) {
      const released = releases[position - 1];
      if (released !== undefined) this.#followUp(released.shape, released.id);
    }
  }
}
