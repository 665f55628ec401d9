import { randomUUID } from 'node:crypto';
import type { CoordinationGrant, CoordinationRequest } from '@toolwaves/core';
import type { PendingAcquire } from './at-once-batch.js';
import type { WaitingFor } from './departure.js';
import { FleetGrant, type GrantContext, leaveQueue } from './fleet-grant.js';
import { fleetScripts, type TryReply } from './fleet-scripts.js';
import { RedisCoordinatorError } from './redis-coordinator-error.js';
import { ID_AT, type RequestShape } from './request-shape.js';

/** A waiting request, as its coordinator's channel listener sees it. */
export interface Waiter extends WaitingFor {
  /** Tries the request again (a no-op once settled). */
  wake(): void;
  /** A releasing script granted it (`+<id> <token> <lease start>` on the coordinator's channel). */
  handed(token: number, leaseStart: number | undefined): void;
}

/** What one request needs from its coordinator. */
export interface WaitContext extends GrantContext {
  /** The fallback poll while waiting (also renews the waiting entry's lease). */
  readonly pollMs: number;
  /** Waiters by request id: woken when something they wait for leaves, or handed a grant. */
  readonly waiters: Map<string, Waiter>;
}

/**
 * Asks Redis for `request` (of shape `shape`) and settles when it is granted (a
 * {@link FleetGrant}), when its `signal` is aborted (`cancelled`: it leaves the queue first) or
 * when Redis fails (`unavailable`). Uncontended, that is one round trip and nothing else: a
 * request granted at once never becomes a {@link Waiter}. Else it waits: granted by its own
 * retry, or handed the grant by the script that released what it waited for; woken by the
 * release channel when something it waits for leaves, and polling every `pollMs` as a fallback
 * (a holder that died announces nothing).
 */
export function waitForGrant(
  context: WaitContext,
  shape: RequestShape,
  request: CoordinationRequest,
): Promise<CoordinationGrant> {
  if (request.signal.aborted) return Promise.reject(cancelled(shape, request));
  if (!shape.batchable) return enqueue(context, shape, request);
  return new Promise<CoordinationGrant>((resolve, reject) => {
    context.batch.acquire(new AtOnceAcquire({ context, shape, request, resolve, reject }));
  });
}

/** An acquire sent through GRANT-AT-ONCE: settles its promise with what the batch learns. */
class AtOnceAcquire implements PendingAcquire {
  readonly shape: RequestShape;
  readonly id = randomUUID();
  readonly #context: WaitContext;
  readonly #request: CoordinationRequest;
  readonly #resolve: (grant: CoordinationGrant | Promise<CoordinationGrant>) => void;
  readonly #reject: (error: unknown) => void;

  constructor(options: {
    context: WaitContext;
    shape: RequestShape;
    request: CoordinationRequest;
    resolve: (grant: CoordinationGrant | Promise<CoordinationGrant>) => void;
    reject: (error: unknown) => void;
  }) {
    this.shape = options.shape;
    this.#context = options.context;
    this.#request = options.request;
    this.#resolve = options.resolve;
    this.#reject = options.reject;
  }

  granted(token: number, sentAt: number): void {
    if (this.#request.signal.aborted) {
      this.#context.batch.release({ shape: this.shape, id: this.id });
      this.#reject(cancelled(this.shape, this.#request));
    } else {
      this.#resolve(
        grantOf(this.#context, this.shape, this.#request, this.id, token, sentAt, false),
      );
    }
  }

  notGranted(): void {
    this.#resolve(enqueue(this.#context, this.shape, this.#request));
  }

  failed(error: unknown): void {
    this.#reject(error);
  }
}

/** ENQUEUE: granted at once, or a {@link WaitingRequest} until it is. */
function enqueue(
  context: WaitContext,
  shape: RequestShape,
  request: CoordinationRequest,
): Promise<CoordinationGrant> {
  if (request.signal.aborted) return Promise.reject(cancelled(shape, request));
  const id = randomUUID();
  const command = shape.enqueue.slice();
  command[ID_AT] = id;
  const leave = (flag: 'r' | '-'): void =>
    leaveQueue({ connection: context.connection, batch: context.batch, shape, id, flag });
  let sentAt = 0;
  return new Promise<TryReply>((resolve, reject) => {
    context.batch.after(() => {
      sentAt = performance.now();
      context.connection.run(fleetScripts().enqueue, command).then(resolve, reject);
    });
  }).then(
    (reply) => {
      const recorded = shape.limit > 0 || shape.exclusive;
      if (reply.kind === 'granted') {
        if (request.signal.aborted) {
          leave(recorded ? 'r' : '-');
          throw cancelled(shape, request);
        }
        return grantOf(context, shape, request, id, reply.token, sentAt, recorded);
      }
      return new Promise<CoordinationGrant>((resolve, reject) => {
        new WaitingRequest({ context, shape, request, id, resolve, reject }).start(reply, sentAt);
      });
    },
    (error: unknown) => {
      // the script may have run with its answer lost: take out whatever it left
      leave('r');
      throw error;
    },
  );
}

function grantOf(
  context: WaitContext,
  shape: RequestShape,
  request: CoordinationRequest,
  id: string,
  token: number,
  grantedFrom: number,
  recorded: boolean,
): FleetGrant {
  return new FleetGrant({
    context,
    shape,
    id,
    token,
    grantedFrom,
    recorded,
    toolCallId: request.toolCallId,
  });
}

function cancelled(shape: RequestShape, request: CoordinationRequest): RedisCoordinatorError {
  return new RedisCoordinatorError({
    code: 'cancelled',
    message: `Stopped waiting for the fleet locks of call ${request.toolCallId} (${shape.toolName}) on ${shape.describe}: the call was cancelled`,
    cause: request.signal.reason,
  });
}

/** A queued request until it is granted, cancelled or fails. */
class WaitingRequest implements Waiter {
  readonly access: WaitingFor['access'];
  readonly toolName: string;
  readonly limit: number;
  readonly exclusive: boolean;
  readonly group: string;
  readonly #context: WaitContext;
  readonly #shape: RequestShape;
  readonly #request: CoordinationRequest;
  readonly #resolve: (grant: CoordinationGrant) => void;
  readonly #reject: (error: unknown) => void;
  #id: string;
  #settled = false;
  #busy = false;
  #again = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** The last waiting answer: when its command was sent (local) and Redis's clock when it ran. */
  #sentAt = 0;
  #redisNow = 0;

  constructor(options: {
    context: WaitContext;
    shape: RequestShape;
    request: CoordinationRequest;
    id: string;
    resolve: (grant: CoordinationGrant) => void;
    reject: (error: unknown) => void;
  }) {
    this.#context = options.context;
    this.#shape = options.shape;
    this.#request = options.request;
    this.#id = options.id;
    this.#resolve = options.resolve;
    this.#reject = options.reject;
    this.access = options.shape.access;
    this.toolName = options.shape.toolName;
    this.limit = options.shape.limit;
    this.exclusive = options.shape.exclusive;
    this.group = options.shape.group;
  }

  /** Starts waiting after ENQUEUE answered `reply` (sent at `sentAt`). */
  start(reply: TryReply, sentAt: number): void {
    this.#request.signal.addEventListener('abort', this.#onAbort, { once: true });
    this.#context.waiters.set(this.#id, this);
    this.#answer(reply, sentAt);
    if (this.#request.signal.aborted) this.#onAbort();
  }

  wake(): void {
    if (this.#settled) return;
    if (this.#busy) {
      this.#again = true;
      return;
    }
    this.#send(fleetScripts().retry, this.#shape.retry);
  }

  handed(token: number, leaseStart: number | undefined): void {
    if (this.#settled) return;
    if (leaseStart === undefined || this.#redisNow === 0) {
      // when the lease started is not known here: count it from now and renew at once
      this.#granted(token, performance.now());
      return;
    }
    // the lease started at `leaseStart` on Redis's clock; our last waiting answer ran at
    // `redisNow`, after we sent it at `sentAt`: so it started at `sentAt + (leaseStart - redisNow)`
    // on ours at the earliest (less a millisecond for Redis's rounding)
    const from = this.#sentAt + (leaseStart - this.#redisNow) - 1;
    this.#granted(token, Math.min(from, performance.now()));
  }

  #send(script: ReturnType<typeof fleetScripts>['retry'], template: readonly string[]): void {
    const command = template.slice();
    command[ID_AT] = this.#id;
    this.#busy = true;
    this.#again = false;
    this.#context.batch.flushReleases();
    const sentAt = performance.now();
    this.#context.connection.run(script, command).then(
      (reply) => {
        this.#busy = false;
        this.#answer(reply, sentAt);
      },
      (error: unknown) => {
        this.#busy = false;
        this.#fail(error);
      },
    );
  }

  #answer(reply: TryReply, sentAt: number): void {
    if (this.#settled) return;
    if (reply.kind === 'granted') {
      this.#granted(reply.token, sentAt);
    } else if (reply.kind === 'expired') {
      // our own waiting entry expired (this process stalled for a whole lease): queue again
      this.#context.waiters.delete(this.#id);
      this.#id = randomUUID();
      this.#context.waiters.set(this.#id, this);
      this.#send(fleetScripts().enqueue, this.#shape.enqueue);
    } else {
      this.#sentAt = sentAt;
      this.#redisNow = reply.redisNow;
      if (this.#timer === undefined) {
        this.#timer = setInterval(() => this.wake(), this.#context.pollMs);
        this.#timer.unref?.();
      }
      if (this.#again) this.wake();
    }
  }

  #granted(token: number, grantedFrom: number): void {
    this.#stopWaiting();
    this.#resolve(
      grantOf(this.#context, this.#shape, this.#request, this.#id, token, grantedFrom, true),
    );
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#stopWaiting();
    leaveQueue({
      connection: this.#context.connection,
      batch: this.#context.batch,
      shape: this.#shape,
      id: this.#id,
      flag: 'r',
    });
    this.#reject(error);
  }

  readonly #onAbort = (): void => this.#fail(cancelled(this.#shape, this.#request));

  #stopWaiting(): void {
    this.#settled = true;
    this.#context.waiters.delete(this.#id);
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#request.signal.removeEventListener('abort', this.#onAbort);
  }
}
