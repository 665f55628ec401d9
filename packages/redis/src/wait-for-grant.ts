import { randomUUID } from 'node:crypto';
import type { CoordinationGrant, CoordinationRequest } from '@toolwaves/core';
import type { WaitingFor } from './departure.js';
import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './fleet-keys.js';
import {
  ENQUEUE_SCRIPT,
  type FleetScript,
  fleetScript,
  RELEASE_SCRIPT,
  RETRY_SCRIPT,
} from './fleet-scripts.js';
import { LeaseRenewal } from './lease-renewal.js';
import { RedisCoordinatorError } from './redis-coordinator-error.js';

const ENQUEUE = fleetScript(ENQUEUE_SCRIPT);
const RETRY = fleetScript(RETRY_SCRIPT);
const RELEASE = fleetScript(RELEASE_SCRIPT);

/** A waiting request, as its coordinator's release-channel listener sees it. */
export interface Waiter extends WaitingFor {
  /** Tries the request again (a no-op once settled). */
  wake(): void;
}

/** What one wait needs from its coordinator. */
export interface WaitContext {
  readonly connection: FleetConnection;
  readonly keys: FleetKeys;
  readonly leaseMs: number;
  /** The fallback poll while waiting (also renews the waiting entry's lease). */
  readonly pollMs: number;
  /** The fleet cap of the request's tool, 0 for none. */
  readonly limit: number;
  /** Waiters woken when something they wait for leaves the queue; a wait adds itself while it waits. */
  readonly waiters: Set<Waiter>;
}

/**
 * Queues `request` in Redis and settles when it is granted (a {@link CoordinationGrant} whose
 * lease is renewed until `release()`), when its `signal` is aborted (`cancelled`: it leaves the
 * queue first) or when Redis fails (`unavailable`). While it waits it is woken by the release
 * channel when something it waits for leaves, and polls every `pollMs` as a fallback (a holder
 * that died announces nothing).
 */
export function waitForGrant(
  context: WaitContext,
  request: CoordinationRequest,
): Promise<CoordinationGrant> {
  const { connection, keys, leaseMs, pollMs, limit, waiters } = context;
  const id = randomUUID();
  const requestKey = `${keys.requestPrefix}${id}`;
  const accesses = JSON.stringify(
    request.access.map((a) => [a.mode === 'read' ? 'r' : 'w', a.key]),
  );
  const describe = `call ${request.toolCallId} (${request.toolName}) on ${describeAccess(request)}`;

  return new Promise<CoordinationGrant>((resolve, reject) => {
    let settled = false;
    let queued = false;
    let busy = false;
    let again = false;
    let timer: ReturnType<typeof setInterval> | undefined;

    const stopWaiting = (): void => {
      waiters.delete(waiter);
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      request.signal.removeEventListener('abort', onAbort);
    };
    const leave = (): void => leaveQueue({ connection, keys, id, requestKey });
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      stopWaiting();
      if (queued) leave();
      reject(error);
    };
    const onAbort = (): void => {
      fail(
        new RedisCoordinatorError({
          code: 'cancelled',
          message: `Stopped waiting for the fleet locks of ${describe}: the call was cancelled`,
          cause: request.signal.reason,
        }),
      );
    };
    const answer = (reply: unknown, sentAt: number): void => {
      if (settled) {
        if (Number(reply) > 0) leave();
        return;
      }
      const token = Number(reply);
      if (token > 0) {
        settled = true;
        stopWaiting();
        resolve(grant({ connection, keys, id, requestKey, leaseMs, sentAt, token, describe }));
      } else if (token === -1) {
        // Our own waiting entry expired (this process stalled for a whole lease): queue again.
        attempt(ENQUEUE, enqueueArgs());
      } else {
        if (timer === undefined) {
          waiters.add(waiter);
          timer = setInterval(wake, pollMs);
          timer.unref?.();
        }
        if (again) wake();
      }
    };
    const attempt = (script: FleetScript, [keyList, args]: [string[], string[]]): void => {
      queued = true;
      busy = true;
      again = false;
      const sentAt = performance.now();
      connection.run(script, keyList, args).then(
        (reply) => {
          busy = false;
          answer(reply, sentAt);
        },
        (error: unknown) => {
          busy = false;
          fail(error);
        },
      );
    };
    const enqueueArgs = (): [string[], string[]] => [
      [keys.seq, keys.queue, requestKey, keys.fence, keys.waiting],
      [
        id,
        request.toolName,
        accesses,
        String(leaseMs),
        String(limit),
        keys.requestPrefix,
        keys.released,
      ],
    ];
    const wake = (): void => {
      if (settled) return;
      if (busy) {
        again = true;
        return;
      }
      attempt(RETRY, [
        [keys.queue, requestKey, keys.fence, keys.waiting],
        [id, String(leaseMs), String(limit), keys.requestPrefix, keys.released],
      ]);
    };

    const waiter: Waiter = { access: request.access, toolName: request.toolName, limit, wake };

    if (request.signal.aborted) {
      onAbort();
      return;
    }
    request.signal.addEventListener('abort', onAbort, { once: true });
    attempt(ENQUEUE, enqueueArgs());
  });
}

function grant(options: {
  connection: FleetConnection;
  keys: FleetKeys;
  id: string;
  requestKey: string;
  leaseMs: number;
  sentAt: number;
  token: number;
  describe: string;
}): CoordinationGrant {
  const { connection, keys, id, requestKey, token } = options;
  const lost = new AbortController();
  const lease = new LeaseRenewal({
    connection,
    key: requestKey,
    leaseMs: options.leaseMs,
    grantedFrom: options.sentAt,
    describe: options.describe,
    onLost: (error) => lost.abort(error),
  });
  let released = false;
  return {
    fencingToken: token,
    lost: lost.signal,
    release: () => {
      if (!released) {
        released = true;
        lease.stop();
        leaveQueue({ connection, keys, id, requestKey });
      }
      return Promise.resolve();
    },
  };
}

/**
 * Takes a request out of the queue (waiting or holding) and announces its departure. Not
 * awaited: the caller goes on at once. The connection's later commands are ordered after it,
 * and `close()` waits for it; if Redis is away, the entry expires with its lease.
 */
function leaveQueue(options: {
  connection: FleetConnection;
  keys: FleetKeys;
  id: string;
  requestKey: string;
}): void {
  const { connection, keys, id, requestKey } = options;
  connection.inBackground(
    connection.run(RELEASE, [keys.queue, requestKey, keys.waiting], [id, keys.released]),
  );
}

function describeAccess(request: CoordinationRequest): string {
  const shown = request.access.map((a) => `${a.mode} ${a.key}`);
  return shown.length === 0 ? 'no keys' : shown.join(', ');
}
