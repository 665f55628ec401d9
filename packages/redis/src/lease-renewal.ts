import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './fleet-keys.js';
import { fleetScripts, scriptCommand } from './fleet-scripts.js';
import { RedisCoordinatorError } from './redis-coordinator-error.js';

/** RENEW's answer when the lease was extended (see `scripts/renew-1.lua`). */
const RENEWED = 1;

/**
 * Keeps one granted lease alive until `stop()` (the grant's `release()`), however long the tool
 * runs. Every third of `leaseMs` it renews the lease in Redis, and it counts the lease valid
 * until `leaseMs` after the last renewal that Redis confirmed, measured from when that renewal
 * was *sent* (Redis started its deadline later, so the local view never outlives the server's).
 *
 * Loss is decided at that deadline minus a margin of a fifth of the lease: so `onLost` runs
 * before Redis can give the keys to anyone else (as long as both clocks run at about the same
 * rate), even when renewals hang or fail. A renewal that fails is retried until then; Redis
 * answering that the lease is gone (it expired, or the server lost its data) loses it at once.
 * One timer serves both the renewals and the loss: it is set for whichever comes first.
 */
export class LeaseRenewal {
  readonly #connection: FleetConnection;
  readonly #keys: FleetKeys;
  readonly #id: string;
  readonly #leaseMs: number;
  readonly #onLost: (error: RedisCoordinatorError) => void;
  readonly #describe: string;
  #validUntil: number;
  #renewAt: number;
  #renewing = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(options: {
    connection: FleetConnection;
    keys: FleetKeys;
    /** The request's id. */
    id: string;
    leaseMs: number;
    /** When the lease started, on the local clock (`performance.now()`), at the latest. */
    grantedFrom: number;
    /** Renew at once (when the lease's start is not known). */
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
    const now = performance.now();
    this.#renewAt = options.renewAtOnce === true ? now : now + options.leaseMs / 3;
    this.#schedule(now);
  }

  /** Stops renewing (the grant is being released). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #schedule(now: number): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    const lossAt = this.#validUntil - this.#leaseMs / 5;
    const at = this.#renewing ? lossAt : Math.min(this.#renewAt, lossAt);
    this.#timer = setTimeout(this.#due, Math.max(0, at - now));
    this.#timer.unref?.();
  }

  readonly #due = (): void => {
    const now = performance.now();
    if (now >= this.#validUntil - this.#leaseMs / 5) {
      this.#lose('it could not be renewed in time');
      return;
    }
    if (!this.#renewing && now >= this.#renewAt) this.#renew(now);
    this.#schedule(now);
  };

  #renew(sentAt: number): void {
    this.#renewing = true;
    const renew = fleetScripts().renew;
    this.#connection
      .run(renew, scriptCommand(renew, [this.#keys.leases], [this.#id, String(this.#leaseMs)]))
      .then(
        (answer) => {
          if (this.#stopped) return;
          this.#renewing = false;
          if (answer !== RENEWED) {
            this.#lose('Redis no longer holds it (it expired, or the server lost its data)');
            return;
          }
          const now = performance.now();
          this.#validUntil = Math.max(this.#validUntil, sentAt + this.#leaseMs);
          this.#renewAt = now + this.#leaseMs / 3;
          this.#schedule(now);
        },
        () => {
          if (this.#stopped) return;
          // Redis unreachable or slow: try again soon; the loss deadline decides when it is too late
          this.#renewing = false;
          const now = performance.now();
          this.#renewAt = now + this.#leaseMs / 10;
          this.#schedule(now);
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
