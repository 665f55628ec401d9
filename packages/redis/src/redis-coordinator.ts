import { randomUUID } from 'node:crypto';
import type { CoordinationGrant, CoordinationRequest, Coordinator } from '@toolwaves/core';
import { AtOnceBatch } from './at-once-batch.js';
import { departureConcerns, parseDeparture } from './departure.js';
import { FirstRenewals } from './first-renewals.js';
import { FleetConnection, type Listening } from './fleet-connection.js';
import { leaveQueue } from './fleet-grant.js';
import { type FleetKeys, fleetKeys } from './fleet-keys.js';
import { fleetLimitOf } from './fleet-limit-of.js';
import { fleetScripts } from './fleet-scripts.js';
import { RedisCoordinatorError } from './redis-coordinator-error.js';
import {
  checkCoordinatorOptions,
  type RedisCoordinatorOptions,
} from './redis-coordinator-options.js';
import { RequestShapes, requestShape } from './request-shape.js';
import { type WaitContext, type Waiter, waitForGrant } from './wait-for-grant.js';

/** A {@link Coordinator} on Redis, from {@link redisCoordinator}. */
export interface RedisCoordinator extends Coordinator {
  /**
   * The fleet-wide limits (`limits` option): a tool's name, or a named limit tools declare
   * (`Tool.limits`); a Dispatcher sends a call's weight in those it declares.
   */
  readonly limits: Readonly<Record<string, number>>;
  /** Round trips to Redis so far (script runs and lease renewals), for measuring overhead. */
  readonly roundTrips: number;
  /**
   * Stops the coordinator: waits for the releases in flight, then later `acquire`s reject with
   * `closed`; closes the connections it opened (never a `client` it was given). Release your
   * grants first.
   */
  close(): Promise<void>;
}

const NEVER_LOST = new AbortController().signal;
const NOTHING_HELD: CoordinationGrant = { lost: NEVER_LOST, release: () => Promise.resolve() };

/**
 * Coordinates the calls of every process that shares one Redis and one `namespace`: before a
 * call runs it holds its declared accesses fleet-wide, as read/write locks on the same
 * `/`-hierarchical keys and with the same conflict rule as the planner's `conflicts` (a write of
 * `fs:/repo/a` conflicts with a read of `fs:/repo` and of `fs:/repo/a/b`; reads share), and
 * `limits` cap how many calls of a tool run at once across the fleet.
 *
 * - **All or nothing:** a call's keys are taken in one Lua script, never some of them.
 * - **Fair:** requests queue in one FIFO per namespace; a request is granted only when no holder
 *   and no earlier-queued waiter conflicts with it, so readers arriving after a waiting writer
 *   wait behind it. `limits` count holders and the earlier waiters held back only by the limit
 *   (a waiter blocked on a key does not hold back a free call).
 * - **Exclusive:** a request with `exclusive: true` (a call that is not concurrency-safe and
 *   declares nothing, or whose declarations could not be read) holds the whole namespace: it
 *   waits for every holder and everything queued before it, and everything after it waits.
 * - **Leases:** a grant is renewed every `leaseMs / 3` until `release()` (which resolves at once:
 *   the release is sent in the background, ordered before this coordinator's later requests),
 *   however long the tool runs; its `lost` signal aborts at the last confirmed renewal's deadline
 *   minus a fifth of the lease, before Redis can give the keys away. A process that dies frees
 *   its locks `leaseMs` after its last renewal.
 * - **Fencing:** tokens are `max(last + 1, Redis TIME in µs)`: they increase with every grant
 *   and never go backwards across a Redis restart or a replica promotion; the token reaches the
 *   tool as `ToolContext.fencingToken` (the fs write tools refuse a stale one at their commit).
 * - **Hand-off and waiting:** the script that releases a key grants it to the next waiters of the
 *   same tool and accesses and tells each one's coordinator, with the lease's start (one round
 *   trip from release to the next start, no renewal at once); other waiters are woken by a
 *   pub/sub message when something they wait for leaves, with a fallback poll every
 *   `min(leaseMs / 4, 1000)` ms; an aborted `signal` leaves the queue and rejects.
 *
 * Uncontended, a grant is one round trip and its release another. A call that declares no
 * access, is not exclusive and whose tool has no limit holds nothing and is granted at once
 * without Redis. Redis unreachable, or silent past `timeoutMs`: `acquire` rejects with
 * {@link RedisCoordinatorError} `unavailable`, and the Dispatcher answers the call with a soft
 * error; it never runs unlocked. Needs Redis 6.2 or later.
 *
 * @example
 * ```ts
 * const coordinator = redisCoordinator({ url: 'redis://localhost:6379', namespace: 'repo-42' });
 * const dispatcher = new Dispatcher({ registry, mode: 'parallel', coordinator });
 * // ... every process of the fleet does the same; at exit:
 * await coordinator.close();
 * ```
 * @see RedisCoordinatorError
 */
export function redisCoordinator(options: RedisCoordinatorOptions): RedisCoordinator {
  const checked = checkCoordinatorOptions(options);
  return new FleetCoordinator({
    connection: new FleetConnection({
      url: checked.url,
      client: checked.client,
      timeoutMs: checked.timeoutMs,
    }),
    keys: fleetKeys(checked.namespace),
    leaseMs: checked.leaseMs,
    limits: checked.limits,
    maxAccesses: checked.maxAccesses,
  });
}

class FleetCoordinator implements RedisCoordinator {
  readonly #connection: FleetConnection;
  readonly #keys: FleetKeys;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #limits: ReadonlyMap<string, number>;
  readonly #maxAccesses: number;
  readonly #waiters = new Map<string, Waiter>();
  readonly #listening: Listening;
  readonly #shapes: RequestShapes;
  readonly #batch: AtOnceBatch;
  readonly #context: WaitContext;

  constructor(options: {
    connection: FleetConnection;
    keys: FleetKeys;
    leaseMs: number;
    limits: ReadonlyMap<string, number>;
    maxAccesses: number;
  }) {
    this.#connection = options.connection;
    this.#keys = options.keys;
    this.#leaseMs = options.leaseMs;
    this.#pollMs = Math.min(Math.floor(options.leaseMs / 4), 1000);
    this.#limits = options.limits;
    this.#maxAccesses = options.maxAccesses;
    const own = `${options.keys.prefix}handoff:${randomUUID()}`;
    const batch: AtOnceBatch = new AtOnceBatch({
      connection: options.connection,
      keys: options.keys,
      leaseMs: options.leaseMs,
      followUp: (shape, id) =>
        leaveQueue({ connection: options.connection, batch, shape, id, flag: '+' }),
    });
    this.#batch = batch;
    this.#context = {
      connection: options.connection,
      batch,
      keys: options.keys,
      leaseMs: options.leaseMs,
      renewals: new FirstRenewals(options.leaseMs / 3),
      pollMs: this.#pollMs,
      waiters: this.#waiters,
    };
    this.#listening = { released: options.keys.released, own, onMessage: this.#onMessage };
    this.#shapes = new RequestShapes((request) =>
      requestShape({
        keys: this.#keys,
        scripts: fleetScripts(),
        toolName: request.toolName,
        access: request.access,
        limit: this.#limits.get(request.toolName) ?? 0,
        exclusive: request.exclusive,
        ownChannel: own,
        leaseMs: this.#leaseMs,
      }),
    );
  }

  get limits(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.#limits);
  }

  get roundTrips(): number {
    return this.#connection.roundTrips;
  }

  acquire(request: CoordinationRequest): Promise<CoordinationGrant> {
    const exclusive = request.exclusive === true;
    // The one limit the call counts against fleet-wide: its named limit, or its tool's.
    const counted =
      request.limits === undefined ? request.toolName : fleetLimitOf(request, this.#limits);
    if (typeof counted !== 'string') return Promise.reject(counted);
    if (request.access.length === 0 && !exclusive && !this.#limits.has(counted)) {
      return Promise.resolve(NOTHING_HELD);
    }
    const refused = this.#refusal(request);
    if (refused !== undefined) return Promise.reject(refused);
    const shape = this.#shapes.of({ toolName: counted, access: request.access, exclusive });
    const context = this.#context;
    const ready = this.#connection.whenReady(this.#listening);
    if (ready === undefined) return waitForGrant(context, shape, request);
    return ready.then(() => waitForGrant(context, shape, request));
  }

  close(): Promise<void> {
    this.#batch.flush();
    this.#waiters.clear();
    return this.#connection.close();
  }

  /** Why a request cannot be sent (nothing is sent then), or `undefined`. */
  #refusal(request: CoordinationRequest): RedisCoordinatorError | undefined {
    const call = `call ${request.toolCallId} (${request.toolName})`;
    if (request.access.length > this.#maxAccesses) {
      return new RedisCoordinatorError({
        code: 'invalid_request',
        message: `Cannot lock the ${request.access.length} accesses of ${call}: at most ${this.#maxAccesses} accesses per call (the coordinator's \`maxAccesses\`); nothing was sent to Redis`,
      });
    }
    for (const access of request.access) {
      if (
        typeof access.key !== 'string' ||
        access.key.includes('\u0000') ||
        (access.mode !== 'read' && access.mode !== 'write')
      ) {
        return new RedisCoordinatorError({
          code: 'invalid_request',
          message: `Cannot lock ${JSON.stringify(access)} of ${call}: an access is a string \`key\` (without NUL characters) and a \`mode\` of 'read' or 'write'`,
        });
      }
    }
    return undefined;
  }

  readonly #onMessage = (message: string): void => {
    const departure = parseDeparture(message);
    if (departure !== 'any' && 'handedTo' in departure) {
      this.#waiters.get(departure.handedTo)?.handed(departure.token, departure.leaseStart);
      return;
    }
    for (const waiter of [...this.#waiters.values()]) {
      if (departureConcerns(departure, waiter)) waiter.wake();
    }
  };
}
