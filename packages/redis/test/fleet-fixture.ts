import { randomUUID } from 'node:crypto';
import type { Access, CoordinationGrant, CoordinationRequest } from '@toolwaves/core';
import { type TrackedPromise, trackPromise } from '@toolwaves/core/testing';
import { afterAll, afterEach, beforeAll, describe, inject, type TestContext } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-support/redis-server.js';
import {
  type RedisCoordinator,
  type RedisCoordinatorOptions,
  redisCoordinator,
} from '../src/index.js';

/** The URL of the project's shared test server, `''` when `redis-server` is missing. */
export const redisUrl = inject('redisUrl');

/** `describe`, skipped when there is no `redis-server` (global setup printed how to install it). */
export function describeWithRedis(name: string, body: () => void): void {
  describe.skipIf(redisUrl === '')(name, body);
}

const open: RedisCoordinator[] = [];

afterEach(async () => {
  for (const coordinator of open.splice(0)) await coordinator.close();
});

/**
 * The lease of the tests that need one to run out: short enough to wait for, long enough that a
 * loaded machine still renews it in time. Renewed every 500 ms, it is lost only when the event
 * loop stalls for over 600 ms (a 150 ms lease was lost to a 60 ms stall).
 */
export const TEST_LEASE_MS = 1500;

/** A fresh namespace: tests sharing the server never see each other's locks. */
export function freshNamespace(): string {
  return `test-${randomUUID()}`;
}

/**
 * A coordinator on the shared server, closed after the test: after the test of `context` when
 * given (a test that runs at once with others, `it.concurrent`: a file-wide `afterEach` would
 * close its coordinators when another test ends), else after the current test.
 */
export function coordinatorFor(
  options: Partial<RedisCoordinatorOptions> & { namespace: string },
  context?: TestContext,
): RedisCoordinator {
  const coordinator = redisCoordinator(
    options.client === undefined ? { url: redisUrl, ...options } : options,
  );
  if (context === undefined) open.push(coordinator);
  else context.onTestFinished(() => coordinator.close());
  return coordinator;
}

let calls = 0;

/** A request for `access` (`'w fs:/a'`, `'r fs:/b'`), as the Dispatcher would make it. */
export function lockRequest(
  access: readonly string[],
  options: { toolName?: string; signal?: AbortSignal } = {},
): CoordinationRequest {
  calls += 1;
  return {
    toolCallId: `call-${calls}`,
    toolName: options.toolName ?? 'tool',
    access: access.map(parseAccess),
    signal: options.signal ?? new AbortController().signal,
  };
}

function parseAccess(text: string): Access {
  const [mode, key] = [text.slice(0, 1), text.slice(2)];
  return { key, mode: mode === 'r' ? 'read' : 'write' };
}

/** {@link trackPromise}, keeping the promise too, so a test can read its state and await it. */
export function tracked<T>(
  promise: Promise<T>,
): TrackedPromise<T> & { readonly promise: Promise<T> } {
  return Object.assign(trackPromise(promise), { promise });
}

/**
 * Waits until every request `coordinator` sent before now has been answered: it acquires an
 * unrelated key through the same connection (Redis answers one connection in order), then lets
 * the answers' callbacks run. After it, a request still pending is really waiting in Redis.
 */
export async function settleEarlierRequests(coordinator: RedisCoordinator): Promise<void> {
  const probe = await coordinator.acquire(lockRequest([`w probe:/${randomUUID()}`]));
  await probe.release();
  await new Promise((resolve) => setImmediate(resolve));
}

/** Releases every grant given. */
export async function releaseAll(grants: readonly CoordinationGrant[]): Promise<void> {
  await Promise.all(grants.map((grant) => grant.release()));
}

/** A server of the suite's own, to stop and start, and a coordinator on it; see {@link restartableRedis}. */
export interface RestartableRedis {
  readonly server: RedisServer;
  readonly coordinator: RedisCoordinator;
}

/**
 * Starts a `redis-server` of this suite's own (so stopping it touches no other test) and a
 * coordinator on it before the suite's tests, and closes both after them. Read the fields inside
 * tests: they exist once `beforeAll` has run.
 */
export function restartableRedis(options: {
  namespace: string;
  leaseMs: number;
}): RestartableRedis {
  const state: { server?: RedisServer; coordinator?: RedisCoordinator } = {};
  beforeAll(async () => {
    state.server = await startRedisServer();
    state.coordinator = redisCoordinator({ url: state.server.url, ...options });
  });
  afterAll(async () => {
    await state.coordinator?.close();
    await state.server?.stop();
  });
  return {
    get server() {
      return state.server as RedisServer;
    },
    get coordinator() {
      return state.coordinator as RedisCoordinator;
    },
  };
}
