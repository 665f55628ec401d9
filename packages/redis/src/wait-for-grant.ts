import { randomUUID } from 'node:crypto';
import type { CoordinationGrant, CoordinationRequest } from '@toolwaves/core';
import type { WaitingFor } from './departure.js';
import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './fleet-keys.js';
import { ENQUEUE, type FleetScript, RELEASE, RETRY } from './fleet-scripts.js';
import { LeaseRenewal } from './lease-renewal.js';
import { RedisCoordinatorError } from './redis-coordinator-error.js';
import { type RequestKeys, requestKeys } from './request-keys.js';

/** A waiting request, as its coordinator's release-channel listener sees it. */
export interface Waiter extends WaitingFor {
  /** Tries the request again (a no-op once settled). */
  wake(): void;
  /** The releasing script granted it (`+<id> <token>` on the channel). */
  handed(token: number): void;
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
  /** Waiters by request id: woken when something they wait for leaves, or handed a grant. */
  readonly waiters: Map<string, Waiter>;
}

/**
 * Queues `request` in Redis and settles when it is granted (a {@link CoordinationGrant} whose
 * lease is renewed until `release()`), when its `signal` is aborted (`cancelled`: it leaves the
 * queue first) or when Redis fails (`unavailable`). It is granted by its own try, or handed the
 * grant by the script that released what it waited for; while it waits it is woken by the
 * release channel when something it waits for leaves, and polls every `pollMs` as a fallback
 * (a holder that died announces nothing). An `exclusive` request waits for the whole namespace.
 */
export function waitForGrant(
  context: WaitContext,
  request: CoordinationRequest,
): Promise<CoordinationGrant> {
  const { connection, keys, leaseMs, pollMs, limit, waiters } = context;
  const id = randomUUID();
  const exclusive = request.exclusive === true;
  const names = requestKeys(keys, {
    access: request.access,
    toolName: request.toolName,
    limit,
    exclusive,
  });
  const args = scriptArguments(names, {
    id,
    toolName: request.toolName,
    limit,
    exclusive,
    leaseMs,
    channel: keys.released,
  });
  const describe = `call ${request.toolCallId} (${request.toolName}) on ${describeAccess(request)}`;

  return new Promise<CoordinationGrant>((resolve, reject) => {
    let settled = false;
    let queued = false;
    let busy = false;
    let again = false;
    let timer: ReturnType<typeof setInterval> | undefined;

    const stopWaiting = (): void => {
      waiters.delete(id);
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      request.signal.removeEventListener('abort', onAbort);
    };
    const leave = (): void => leaveQueue(connection, names, args);
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
    const granted = (token: number, sentAt: number, confirmed: boolean): void => {
      settled = true;
      stopWaiting();
      resolve(
        grant({ connection, keys, names, args, leaseMs, sentAt, confirmed, token, describe }),
      );
    };
    const answer = (reply: unknown, sentAt: number): void => {
      const token = Number(reply);
      if (settled) return;
      if (token > 0) granted(token, sentAt, true);
      else if (token === -1) {
        // Our own waiting entry expired (this process stalled for a whole lease): queue again.
        attempt(ENQUEUE);
      } else {
        if (timer === undefined) {
          timer = setInterval(wake, pollMs);
          timer.unref?.();
        }
        if (again) wake();
      }
    };
    const attempt = (script: FleetScript): void => {
      queued = true;
      busy = true;
      again = false;
      const sentAt = performance.now();
      connection.run(script, names.keys, args).then(
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
    const wake = (): void => {
      if (settled) return;
      if (busy) {
        again = true;
        return;
      }
      attempt(RETRY);
    };
    const handed = (token: number): void => {
      // granted by a release: when is not known here, so the lease is renewed at once
      if (!settled) granted(token, performance.now(), false);
    };

    if (request.signal.aborted) {
      onAbort();
      return;
    }
    request.signal.addEventListener('abort', onAbort, { once: true });
    waiters.set(id, {
      access: request.access,
      toolName: request.toolName,
      limit,
      exclusive,
      group: names.group,
      wake,
      handed,
    });
    attempt(ENQUEUE);
  });
}

/** ARGV of the request scripts (see `fleet-scripts.ts`). */
function scriptArguments(
  names: RequestKeys,
  request: {
    id: string;
    toolName: string;
    limit: number;
    exclusive: boolean;
    leaseMs: number;
    channel: string;
  },
): string[] {
  return [
    request.id,
    request.toolName,
    String(request.limit),
    request.exclusive ? '1' : '0',
    String(request.leaseMs),
    request.channel,
    names.announced,
    String(names.entered.length),
    String(names.conflicting.length),
    ...names.entered.map(String),
    ...names.conflicting.map(String),
  ];
}

function grant(options: {
  connection: FleetConnection;
  keys: FleetKeys;
  names: RequestKeys;
  args: readonly string[];
  leaseMs: number;
  sentAt: number;
  confirmed: boolean;
  token: number;
  describe: string;
}): CoordinationGrant {
  const { connection, names, args, token } = options;
  const id = args[0] as string;
  const lost = new AbortController();
  const lease = new LeaseRenewal({
    connection,
    keys: options.keys,
    id,
    leaseMs: options.leaseMs,
    grantedFrom: options.sentAt,
    renewAtOnce: !options.confirmed,
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
        leaveQueue(connection, names, args);
      }
      return Promise.resolve();
    },
  };
}

/**
 * Takes a request out of the queue (waiting or holding), hands its keys on and announces its
 * departure. Not awaited: the caller goes on at once. The connection's later commands are
 * ordered after it, and `close()` waits for it; if Redis is away, the entry expires with its lease.
 */
function leaveQueue(
  connection: FleetConnection,
  names: RequestKeys,
  args: readonly string[],
): void {
  connection.inBackground(connection.run(RELEASE, names.keys, args));
}

function describeAccess(request: CoordinationRequest): string {
  if (request.exclusive === true) return 'the whole namespace (exclusive)';
  const shown = request.access.map((a) => `${a.mode} ${a.key}`);
  return shown.length === 0 ? 'no keys' : shown.join(', ');
}
