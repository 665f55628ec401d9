import { createClient } from '@redis/client';
import { expect, it } from 'vitest';
import { type RedisCoordinator, RedisCoordinatorError } from '../src/index.js';
import {
  coordinatorFor,
  describeWithRedis,
  freshNamespace,
  lockRequest,
  redisUrl,
  settleEarlierRequests,
  TEST_LEASE_MS,
  tracked,
} from './fleet-fixture.js';

/** A resource that refuses writers whose fencing token is older than one it has seen. */
class FencedRecord {
  value = '';
  #highest = 0;

  write(value: string, token: number): boolean {
    if (token < this.#highest) return false;
    this.#highest = token;
    this.value = value;
    return true;
  }
}

/**
 * Waits until `coordinator` has sent `renewals` more commands (its lease renewals, while it
 * holds one grant and asks nothing else), or until `lost` aborts: a lost lease stops the
 * renewals, and the test then fails on its assertions instead of waiting for ever.
 */
function renewalsOrLoss(
  coordinator: RedisCoordinator,
  options: { renewals: number; lost: AbortSignal },
): Promise<void> {
  const target = coordinator.roundTrips + options.renewals;
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearInterval(check);
      options.lost.removeEventListener('abort', done);
      resolve();
    };
    const check = setInterval(() => {
      if (coordinator.roundTrips >= target) done();
    }, 20);
    options.lost.addEventListener('abort', done);
  });
}

describeWithRedis('fleet locks: leases and fencing', () => {
  it('fencing tokens increase with every grant, on one key and across overlapping keys', async () => {
    const coordinator = coordinatorFor({ namespace: freshNamespace() });
    const tokens: number[] = [];
    for (const key of ['w fs:/a', 'w fs:/a', 'r fs:/a/b', 'w fs:/a/b', 'w fs:/']) {
      const grant = await coordinator.acquire(lockRequest([key]));
      tokens.push(grant.fencingToken ?? Number.NaN);
      await grant.release();
    }
    for (let i = 1; i < tokens.length; i += 1) {
      expect(tokens[i]).toBeGreaterThan(tokens[i - 1] ?? Number.POSITIVE_INFINITY);
    }
  });

  // The two lease scenarios run at once: each mostly waits for a lease to run out or to renew.
  it.concurrent('a holder that stops renewing loses its lease: it is told first, then the next waiter gets the lock with a newer token, and the stale token is refused', async (context) => {
    const namespace = freshNamespace();
    const stalled = createClient({ url: redisUrl, disableOfflineQueue: true });
    stalled.on('error', () => undefined);
    await stalled.connect();
    const holder = coordinatorFor({ namespace, client: stalled, leaseMs: TEST_LEASE_MS }, context);
    const waiter = coordinatorFor({ namespace, leaseMs: TEST_LEASE_MS }, context);
    const events: string[] = [];

    const first = await holder.acquire(lockRequest(['w db:/orders']));
    first.lost.addEventListener('abort', () => events.push('holder told it lost the lease'));
    const second = tracked(waiter.acquire(lockRequest(['w db:/orders'])));
    await settleEarlierRequests(waiter);
    expect(second.status).toBe('pending');

    // the holder's process stalls: no renewal reaches Redis any more
    stalled.destroy();
    const next = await second.promise;
    events.push('waiter granted');

    expect(events).toEqual(['holder told it lost the lease', 'waiter granted']);
    const reason: unknown = first.lost.reason;
    expect(reason).toBeInstanceOf(RedisCoordinatorError);
    expect((reason as RedisCoordinatorError).code).toBe('lease_lost');
    expect((reason as RedisCoordinatorError).message).toContain('db:/orders');

    const record = new FencedRecord();
    const fresh = next.fencingToken ?? 0;
    const stale = first.fencingToken ?? 0;
    expect(fresh).toBeGreaterThan(stale);
    expect(record.write('from the new holder', fresh)).toBe(true);
    expect(record.write('from the stalled holder, too late', stale)).toBe(false);
    expect(record.value).toBe('from the new holder');

    await first.release(); // never throws, even with its client gone
    await next.release();
  });

  it.concurrent('keeps renewing a lease while the call runs longer than the lease', async (context) => {
    const namespace = freshNamespace();
    const holder = coordinatorFor({ namespace, leaseMs: TEST_LEASE_MS }, context);
    const waiter = coordinatorFor({ namespace, leaseMs: TEST_LEASE_MS }, context);
    const grant = await holder.acquire(lockRequest(['w q']));
    const second = tracked(waiter.acquire(lockRequest(['w q'])));
    // Renewals come a third of a lease apart at the soonest: after five, more than a lease and
    // a half has passed since the grant — measured by renewals rather than by a clock.
    await renewalsOrLoss(holder, { renewals: 5, lost: grant.lost });
    expect(grant.lost.reason).toBeUndefined();
    expect(grant.lost.aborted).toBe(false);
    expect(second.status).toBe('pending');
    await grant.release();
    await (await second.promise).release();
  });
});
