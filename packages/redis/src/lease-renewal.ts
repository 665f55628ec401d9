import type { FleetConnection } from './fleet-connection.js';
import { RedisCoordinatorError } from './redis-coordinator-error.js';

/**
 * Keeps one granted lease alive: every third of `leaseMs` it renews the request's TTL
 * (`PEXPIRE`), and counts the lease valid until `leaseMs` after the last renewal that Redis
 * confirmed, measured from when that renewal was sent (Redis started its TTL later, so the local
 * view never outlives the server's). It calls `onLost` once when:
 * - Redis answers that the lease is gone (it expired, or the server lost its data),
 * - a renewal fails (Redis unreachable), or
 * - less than a quarter of the lease is left and no renewal has been confirmed (a hung link).
 */
export class LeaseRenewal {
  readonly #connection: FleetConnection;
  readonly #key: string;
  readonly #leaseMs: number;
  readonly #onLost: (error: RedisCoordinatorError) => void;
  readonly #describe: string;
  readonly #timer: ReturnType<typeof setInterval>;
  #validUntil: number;
  #renewing = false;
  #stopped = false;

  constructor(options: {
    connection: FleetConnection;
    /** The request's hash in Redis. */
    key: string;
    leaseMs: number;
    /** When the grant's command was sent (`performance.now()`): the lease runs from there. */
    grantedFrom: number;
    /** What the lease covers, for the message of the loss. */
    describe: string;
    onLost: (error: RedisCoordinatorError) => void;
  }) {
    this.#connection = options.connection;
    this.#key = options.key;
    this.#leaseMs = options.leaseMs;
    this.#onLost = options.onLost;
    this.#describe = options.describe;
    this.#validUntil = options.grantedFrom + options.leaseMs;
    this.#timer = setInterval(() => this.#tick(), Math.max(1, Math.floor(options.leaseMs / 3)));
    this.#timer.unref?.();
  }

  /** Stops renewing (the grant is being released). */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
  }

  #tick(): void {
    if (this.#stopped) return;
    const now = performance.now();
    if (this.#validUntil - now <= this.#leaseMs / 4) {
      this.#lose('it could not be renewed in time');
      return;
    }
    if (this.#renewing) return;
    this.#renewing = true;
    this.#connection.send(['PEXPIRE', this.#key, String(this.#leaseMs)]).then(
      (answer) => {
        this.#renewing = false;
        if (Number(answer) === 1) this.#validUntil = now + this.#leaseMs;
        else this.#lose('Redis no longer holds it (it expired, or the server lost its data)');
      },
      (error: unknown) => {
        this.#renewing = false;
        this.#lose(error instanceof Error ? error.message : String(error), error);
      },
    );
  }

  #lose(why: string, cause?: unknown): void {
    if (this.#stopped) return;
    this.stop();
    this.#onLost(
      new RedisCoordinatorError({
        code: 'lease_lost',
        message: `Lost the fleet lease of ${this.#describe}: ${why}`,
        ...(cause === undefined ? {} : { cause }),
      }),
    );
  }
}
