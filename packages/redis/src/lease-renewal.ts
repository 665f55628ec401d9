import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './fleet-keys.js';
import { RENEW } from './fleet-scripts.js';
import { RedisCoordinatorError } from './redis-coordinator-error.js';

/**
 * Keeps one granted lease alive until `stop()` (the grant's `release()`), however long the tool
 * runs. Every third of `leaseMs` it renews the lease in Redis, and it counts the lease valid
 * until `leaseMs` after the last renewal that Redis confirmed, measured from when that renewal
 * was *sent* (Redis started its deadline later, so the local view never outlives the server's).
 *
 * Loss is decided by a timer, armed after each confirmed renewal, at that deadline minus a
 * margin of a fifth of the lease: so `onLost` runs before Redis can give the keys to anyone
 * else (as long as both clocks run at about the same rate), even when renewals hang or fail.
 * A renewal that fails is retried until then; Redis answering that the lease is gone (it
 * expired, or the server lost its data) loses it at once.
 */
export class LeaseRenewal {
  readonly #connection: FleetConnection;
  readonly #keys: FleetKeys;
  readonly #id: string;
  readonly #leaseMs: number;
  readonly #onLost: (error: RedisCoordinatorError) => void;
  readonly #describe: string;
  #validUntil: number;
  #renewTimer: ReturnType<typeof setTimeout> | undefined;
  #lossTimer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(options: {
    connection: FleetConnection;
    keys: FleetKeys;
    /** The request's id. */
    id: string;
    leaseMs: number;
    /** When the grant's command was sent (`performance.now()`): the lease runs from there. */
    grantedFrom: number;
    /** Renew at once (a grant handed over by a release: when it started is not known here). */
    renewAtOnce?: boolean;
    /** What the lease covers, for the message of the loss. */
    describe: string;
    onLost: (error: RedisCoordinatorError) => void;
  }) {
    this.#connection = options.connection;
    this.#keys = options.keys;
    this.#id = options.id;
    this.#leaseMs = options.leaseMs;
    this.#onLost = options.onLost;
    this.#describe = options.describe;
    this.#validUntil = options.grantedFrom + options.leaseMs;
    this.#armLossTimer();
    this.#scheduleRenewal(options.renewAtOnce === true ? 0 : this.#leaseMs / 3);
  }

  /** Stops renewing (the grant is being released). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#renewTimer);
    clearTimeout(this.#lossTimer);
  }

  #armLossTimer(): void {
    clearTimeout(this.#lossTimer);
    const at = this.#validUntil - this.#leaseMs / 5;
    this.#lossTimer = setTimeout(
      () => this.#lose('it could not be renewed in time'),
      Math.max(0, at - performance.now()),
    );
    this.#lossTimer.unref?.();
  }

  #scheduleRenewal(delayMs: number): void {
    if (this.#stopped) return;
    this.#renewTimer = setTimeout(() => this.#renew(), Math.max(0, Math.floor(delayMs)));
    this.#renewTimer.unref?.();
  }

  #renew(): void {
    if (this.#stopped) return;
    const sentAt = performance.now();
    this.#connection
      .run(RENEW, [this.#keys.leases, this.#keys.holders], [this.#id, String(this.#leaseMs)])
      .then(
        (answer) => {
          if (this.#stopped) return;
          if (Number(answer) !== 1) {
            this.#lose('Redis no longer holds it (it expired, or the server lost its data)');
            return;
          }
          this.#validUntil = Math.max(this.#validUntil, sentAt + this.#leaseMs);
          this.#armLossTimer();
          this.#scheduleRenewal(this.#leaseMs / 3);
        },
        () => {
          // Redis unreachable or slow: try again soon; the loss timer decides when it is too late
          this.#scheduleRenewal(this.#leaseMs / 10);
        },
      );
  }

  #lose(why: string): void {
    if (this.#stopped) return;
    this.stop();
    this.#onLost(
      new RedisCoordinatorError({
        code: 'lease_lost',
        message: `Lost the fleet lease of ${this.#describe}: ${why}`,
      }),
    );
  }
}
