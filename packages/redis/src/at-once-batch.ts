import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './fleet-keys.js';
import { fleetScripts, scriptCommand } from './fleet-scripts.js';
import type { RequestShape } from './request-shape.js';

/** An uncontended acquire waiting for the next GRANT-AT-ONCE. */
interface PendingAcquire {
  readonly shape: RequestShape;
  readonly id: string;
  readonly granted: (token: number, sentAt: number) => void;
  /** Not granted at once (something overlaps it): it goes through ENQUEUE. */
  readonly notGranted: () => void;
  readonly failed: (error: unknown) => void;
}

/** A release of a request granted at once, waiting for the next RELEASE-AT-ONCE. */
interface PendingRelease {
  readonly shape: RequestShape;
  readonly id: string;
}

/**
 * The requests of one coordinator that may be granted at once (no limit, not exclusive) and
 * their releases, gathered while the current task runs and sent together when it ends (a
 * microtask): one GRANT-AT-ONCE for the acquires, one RELEASE-AT-ONCE for the releases, sent
 * releases first. So the calls a process asks for at the same moment cost Redis one script
 * call, not one each, and still one round trip apiece.
 *
 * Order is kept as asked: a request that GRANT-AT-ONCE could not grant goes through ENQUEUE
 * before anything asked after it, so while a GRANT-AT-ONCE is out, later acquires and ENQUEUEs
 * wait for its answer (`after`), and gather into the next one meanwhile. Other commands send
 * the gathered releases first (`flushReleases`), so a release always precedes what follows it.
 */
export class AtOnceBatch {
  readonly #connection: FleetConnection;
  readonly #keys: FleetKeys;
  readonly #leaseMs: number;
  readonly #followUp: (shape: RequestShape, id: string) => void;
  #acquires: PendingAcquire[] = [];
  #releases: PendingRelease[] = [];
  #scheduled = false;
  /** A GRANT-AT-ONCE is out: acquires and ENQUEUEs asked meanwhile wait here, in order. */
  #inFlight = false;
  #waiting: (PendingAcquire | (() => void))[] = [];

  constructor(options: {
    connection: FleetConnection;
    keys: FleetKeys;
    leaseMs: number;
    /** Hands on and announces the departure of a released request someone may wait for. */
    followUp: (shape: RequestShape, id: string) => void;
  }) {
    this.#connection = options.connection;
    this.#keys = options.keys;
    this.#leaseMs = options.leaseMs;
    this.#followUp = options.followUp;
  }

  acquire(pending: PendingAcquire): void {
    if (this.#inFlight) {
      this.#waiting.push(pending);
      return;
    }
    this.#acquires.push(pending);
    this.#schedule();
  }

  /** Runs `send` (an ENQUEUE) once every acquire asked before it has been sent. */
  after(send: () => void): void {
    this.flushReleases();
    if (this.#acquires.length > 0) this.#sendAcquires();
    if (this.#inFlight) this.#waiting.push(send);
    else send();
  }

  release(pending: PendingRelease): void {
    this.#releases.push(pending);
    this.#schedule();
  }

  /** Sends what is gathered: the releases, then the acquires (unless a GRANT-AT-ONCE is out). */
  readonly flush = (): void => {
    this.#scheduled = false;
    this.flushReleases();
    if (this.#acquires.length > 0 && !this.#inFlight) this.#sendAcquires();
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

  #sendAcquires(): void {
    const acquires = this.#acquires.splice(0);
    this.#inFlight = true;
    const keys = this.#keys;
    const script = fleetScripts().grantAtOnce;
    const command = scriptCommand(
      script,
      [keys.fence, keys.leases, keys.present, keys.entries],
      [String(this.#leaseMs)],
    );
    for (const { id, shape } of acquires) command.push(id, ...shape.block);
    const sentAt = performance.now();
    this.#connection.run(script, command).then(
      (tokens) => {
        this.#inFlight = false;
        acquires.forEach((pending, i) => {
          const token = tokens[i] ?? 0;
          if (token > 0) pending.granted(token, sentAt);
          else pending.notGranted();
        });
        this.#drain();
      },
      (error: unknown) => {
        this.#inFlight = false;
        for (const pending of acquires) {
          // the script may have run with its answer lost: take out whatever it granted
          this.release(pending);
          pending.failed(error);
        }
        this.#drain();
      },
    );
  }

  /** Sends, in order, what waited for the answer, up to the next GRANT-AT-ONCE it needs. */
  #drain(): void {
    while (this.#waiting.length > 0 && !this.#inFlight) {
      const next = this.#waiting.shift() as PendingAcquire | (() => void);
      if (typeof next === 'function') {
        if (this.#acquires.length > 0) {
          this.#sendAcquires();
          this.#waiting.unshift(next);
        } else next();
      } else this.#acquires.push(next);
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
    for (const { id, shape } of releases) command.push(id, ...shape.block);
    this.#connection.inBackground(
      this.#connection.run(script, command).then((positions) => {
        for (const position of positions) {
          const released = releases[position - 1];
          if (released !== undefined) this.#followUp(released.shape, released.id);
        }
      }),
    );
  }
}
